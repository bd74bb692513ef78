/**
 * Temporary copies of a built site that the benchmarks and the audit serve beside the real one:
 * our page with every script removed (the floor bench:startup and the audit compare it with), and
 * the site talking to bench:submit's Supabase origin.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { writeSecurityHeaders } from "../../build-time/security-headers";
import { PROJECT_ROOT } from "./test-build";

type SiteCopy = { dir: string; remove: () => void };

/**
 * Copies `publicDir` to a temporary folder and rewrites each file whose name matches `files` with
 * `rewrite`; returns the folder and how many files `rewrite` changed.
 */
function copySite(publicDir: string, files: RegExp, rewrite: (text: string) => string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "site-copy-"));
  fs.cpSync(publicDir, dir, { recursive: true });
  let changed = 0;
  for (const entry of fs.readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    const file = path.join(dir, entry);
    // page-data/404.html/ is a folder.
    if (!files.test(entry) || !fs.statSync(file).isFile()) continue;
    const text = fs.readFileSync(file, "utf8");
    const rewritten = rewrite(text);
    if (rewritten === text) continue;
    fs.writeFileSync(file, rewritten);
    changed += 1;
  }
  return { dir, changed, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** A `<script>` element that runs: anything but a data block such as JSON-LD. */
const RUNNING_SCRIPT =
  /<script\b(?![^>]*\btype="application\/(?:ld\+)?json")[^>]*>[\s\S]*?<\/script>/g;

export function withoutScripts(html: string): string {
  return html.replace(RUNNING_SCRIPT, "");
}

/** The built site with every running script removed from its pages; same HTML, CSS and images. */
export function copyWithoutScripts(publicDir: string): SiteCopy {
  return copySite(publicDir, /\.html$/, withoutScripts);
}

/** The Supabase origin a built site talks to: the origin besides 'self' in its connect-src. */
function bakedSupabaseOrigin(headersFile: string): string {
  const connect =
    /connect-src ([^;\n]+)/
      .exec(headersFile)?.[1]
      ?.split(/\s+/)
      .filter((source) => source && source !== "'self'") ?? [];
  if (connect.length !== 1)
    throw new Error(
      `Cannot tell the Supabase origin from the site's _headers (connect-src: ${connect.join(" ") || "none"}).`,
    );
  return connect[0]!;
}

/**
 * The built site talking to `origin` instead of the Supabase origin it was built for. Its _headers
 * are written again as the build writes them: the page's inline loader names the Supabase origin
 * (its warm-up), so the CSP's hash of it changes with the origin.
 */
export async function copyForOrigin(publicDir: string, origin: string): Promise<SiteCopy> {
  const baked = bakedSupabaseOrigin(fs.readFileSync(path.join(publicDir, "_headers"), "utf8"));
  const copy = copySite(publicDir, /(\.js|\.html|_headers)$/, (text) =>
    text.split(baked).join(origin),
  );
  if (copy.changed < 2) {
    copy.remove();
    throw new Error(
      `${baked} was found in ${copy.changed} file(s) of ${publicDir}; expected the scripts and _headers.`,
    );
  }
  await writeSecurityHeaders({
    publicDir: copy.dir,
    supabaseUrl: origin,
    templatePath: path.join(PROJECT_ROOT, "static", "_headers"),
  });
  return copy;
}
