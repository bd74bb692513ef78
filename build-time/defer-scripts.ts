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
 * A page left with a `<script src>` this rewrite does not recognise stops the build: a Gatsby
 * upgrade that changes its tags must not quietly undo the deferral.
 *
 * Runs in onPostBuild on the final HTML, before the Content-Security-Policy hashes it, so the
 * loader is allowed by hash and the scripts by 'self' as before.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { attributesOf, elementsOf, parseHtml, startTagSource, type HtmlElement } from "./html";
import { listFiles } from "./list-files";

const LOADER_ID = "deferred-scripts";

export class DeferScriptsError extends Error {
  override name = "DeferScriptsError";
}

export type DeferredPage = {
  html: string;
  /** The scripts the loader starts, in page order (empty when nothing was rewritten). */
  scripts: string[];
  /** Start tags of scripts with a src that the page still loads during parsing. */
  notDeferred: string[];
};

export function loaderScript(scripts: readonly string[]): string {
  return (
    `(function(){var s=${JSON.stringify(scripts)},d=0;` +
    `function l(){if(d)return;d=1;for(var i=0;i<s.length;i++){var e=document.createElement("script");e.src=s[i];e.async=true;document.body.appendChild(e)}}` +
    `requestAnimationFrame(function(){setTimeout(l,0)});setTimeout(l,200)})()`
  );
}

/** Gatsby's tag for an initial chunk: a same-origin src ending in .js, async, nothing else. */
function chunkSource(element: HtmlElement): string | undefined {
  if (element.tagName !== "script") return undefined;
  const attributes = attributesOf(element);
  const src = attributes.get("src");
  const isChunk = attributes.size === 2 && attributes.has("async") && src !== undefined && /^\/(?!\/)[^"<>]+\.js$/.test(src);
  return isChunk ? src : undefined;
}

/**
 * Replaces the page's async chunk tags with the loader (placed where the first tag was).
 * A page without such tags, or one already rewritten, is returned unchanged.
 */
export function deferScriptsUntilFirstPaint(html: string): DeferredPage {
  const scriptElements = [...elementsOf(parseHtml(html))].filter((element) => element.tagName === "script");
  const alreadyDeferred = scriptElements.some((element) => attributesOf(element).get("id") === LOADER_ID);
  const chunks = alreadyDeferred ? [] : scriptElements.filter((element) => chunkSource(element) !== undefined);
  const notDeferred = scriptElements
    .filter((element) => attributesOf(element).has("src") && !chunks.includes(element))
    .map((element) => startTagSource(html, element));
  if (chunks.length === 0) return { html, scripts: [], notDeferred };

  const scripts = chunks.map((element) => chunkSource(element)!);
  let rewritten = html;
  // From the last tag to the first, so that earlier offsets stay valid.
  for (const [index, element] of [...chunks.entries()].reverse()) {
    const { startOffset, endOffset } = element.sourceCodeLocation!;
    const replacement = index === 0 ? `<script id="${LOADER_ID}">${loaderScript(scripts)}</script>` : "";
    rewritten = rewritten.slice(0, startOffset) + replacement + rewritten.slice(endOffset);
  }
  return { html: rewritten, scripts, notDeferred };
}

/**
 * Gatsby's pages hold its root element. Other HTML in public/ (the content editor at /admin/,
 * written by plugins/cms-admin) loads its own scripts and is left as it is.
 */
function isGatsbyPage(html: string): boolean {
  return html.includes('id="___gatsby"');
}

/**
 * Rewrites every HTML page in publicDir; returns how many pages start their scripts after the
 * first paint. Throws DeferScriptsError when a page keeps a script tag the rewrite does not
 * recognise, or when no page at all was deferred.
 */
export async function deferScriptsInDirectory(publicDir: string): Promise<number> {
  const htmlFiles = (await listFiles(publicDir)).filter((name) => name.endsWith(".html"));
  const problems: string[] = [];
  let deferred = 0;
  for (const file of htmlFiles) {
    const full = path.join(publicDir, file);
    const original = await fs.readFile(full, "utf8");
    if (!isGatsbyPage(original)) continue;
    const page = deferScriptsUntilFirstPaint(original);
    problems.push(...page.notDeferred.map((tag) => `${file}: ${tag}`));
    if (page.scripts.length > 0) await fs.writeFile(full, page.html);
    if (page.html.includes(`id="${LOADER_ID}"`)) deferred += 1;
  }
  if (problems.length > 0 || deferred === 0) {
    throw new DeferScriptsError(
      [
        problems.length > 0
          ? `These script tags would still load while the page is parsed:\n  ${problems.join("\n  ")}`
          : `No page under ${publicDir} has Gatsby's script tags to defer (${htmlFiles.length} HTML files).`,
        'build-time/defer-scripts.ts expects Gatsby\'s initial chunks as <script src="/….js" async></script>; if a Gatsby upgrade changed them, update chunkSource() there.',
      ].join("\n"),
    );
  }
  return deferred;
}
