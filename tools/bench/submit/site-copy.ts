/** The built site as bench:submit serves it: a copy that talks to the benchmark's Supabase origin. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { writeSecurityHeaders } from "../../../build-time/security-headers";
import { PROJECT_ROOT } from "../../lib/test-build";

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
 * A copy of the built site that talks to `origin` instead of the Supabase origin it was built for.
 * Its _headers are written again as the build writes them: the page's inline loader names the
 * Supabase origin (its warm-up), so the CSP's hash of it changes with the origin.
 */
export async function copyForOrigin(
  publicDir: string,
  origin: string,
): Promise<{ dir: string; remove: () => void }> {
  const baked = bakedSupabaseOrigin(fs.readFileSync(path.join(publicDir, "_headers"), "utf8"));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-submit-site-"));
  fs.cpSync(publicDir, dir, { recursive: true });
  let replaced = 0;
  for (const entry of fs.readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    const file = path.join(dir, entry);
    if (!/(\.js|\.html|_headers)$/.test(entry) || !fs.statSync(file).isFile()) continue;
    const text = fs.readFileSync(file, "utf8");
    if (!text.includes(baked)) continue;
    fs.writeFileSync(file, text.split(baked).join(origin));
    replaced += 1;
  }
  if (replaced < 2)
    throw new Error(
      `${baked} was found in ${replaced} file(s) of ${publicDir}; expected the scripts and _headers.`,
    );
  await writeSecurityHeaders({
    publicDir: dir,
    supabaseUrl: origin,
    templatePath: path.join(PROJECT_ROOT, "static", "_headers"),
  });
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
