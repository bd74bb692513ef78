/**
 * Starts Gatsby's JavaScript after the page's first paint instead of during HTML parsing.
 *
 * Everything the first screen needs is in the HTML (content, inlined CSS); the scripts only
 * hydrate it. Gatsby ends each page with `<script src="…" async>` tags (webpack runtime,
 * framework, app), which a slow phone fetches and evaluates while it is still laying out the
 * page, so the first paint (and with it the Largest Contentful Paint, the hero headline)
 * waits for about 90 KB of script. After this rewrite one small inline script adds the same
 * tags right after the first frame is painted (requestAnimationFrame, then a task), or after
 * 200 ms if no frame comes (a page opened in a background tab).
 *
 * Runs in onPostBuild on the final HTML, before the Content-Security-Policy hashes it, so the
 * loader is allowed by hash and the scripts by 'self' as before.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { listFiles } from "./list-files";

/** Gatsby's tag for an initial chunk: a same-origin src, async, nothing else. */
const ASYNC_SCRIPT_TAG = /<script src="(\/[^"<>]+\.js)" async(?:="")?><\/script>/g;
const LOADER_ID = "deferred-scripts";

export type DeferredPage = { html: string; scripts: string[] };

export function loaderScript(scripts: readonly string[]): string {
  return (
    `(function(){var s=${JSON.stringify(scripts)},d=0;` +
    `function l(){if(d)return;d=1;for(var i=0;i<s.length;i++){var e=document.createElement("script");e.src=s[i];e.async=true;document.body.appendChild(e)}}` +
    `requestAnimationFrame(function(){setTimeout(l,0)});setTimeout(l,200)})()`
  );
}

/**
 * Replaces the page's async script tags with the loader (placed where the first tag was).
 * A page without such tags, or one already rewritten, is returned unchanged.
 */
export function deferScriptsUntilFirstPaint(html: string): DeferredPage {
  if (html.includes(`id="${LOADER_ID}"`)) return { html, scripts: [] };
  const scripts = [...html.matchAll(ASYNC_SCRIPT_TAG)].map((match) => match[1]!);
  if (scripts.length === 0) return { html, scripts };
  let first = true;
  const rewritten = html.replace(ASYNC_SCRIPT_TAG, () => {
    if (!first) return "";
    first = false;
    return `<script id="${LOADER_ID}">${loaderScript(scripts)}</script>`;
  });
  return { html: rewritten, scripts };
}

/** Rewrites every HTML page in publicDir; returns how many pages were changed. */
export async function deferScriptsInDirectory(publicDir: string): Promise<number> {
  let changed = 0;
  for (const file of (await listFiles(publicDir)).filter((name) => name.endsWith(".html"))) {
    const full = path.join(publicDir, file);
    const page = deferScriptsUntilFirstPaint(await fs.readFile(full, "utf8"));
    if (page.scripts.length === 0) continue;
    await fs.writeFile(full, page.html);
    changed += 1;
  }
  return changed;
}
