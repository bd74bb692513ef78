/**
 * The built pages start one small script of their own, after the first paint, instead of Gatsby's
 * browser runtime.
 *
 * Everything on the pages is in their HTML (content, inlined CSS), and nothing on them changes after
 * the build but the meeting form. Gatsby's runtime (webpack runtime, React for the whole page, the
 * app with its router and page loader) would only re-render what is already there. So this pass,
 * in onPostBuild, takes its tags out of every page: the `<script src="…" async>` chunk tags and the
 * inline scripts only that runtime reads (page path, compilation hash, chunk map). In their place
 * one inline loader adds the `page-boot` entry's scripts (src/boot/entry.ts: webpack's runtime and
 * about 1 KB of our own) once the first frame is on screen (loaderScript). React comes later, for
 * the form's toasts, with the form's chunk (src/lib/toasts.ts).
 *
 * A page left with a `<script src>` this rewrite does not recognise stops the build: a Gatsby
 * upgrade that changes its tags must not quietly put its runtime back on the page.
 *
 * Runs before the Content-Security-Policy hashes the final HTML, so the loader is allowed by hash
 * and the scripts by 'self'.
 */
import fs from "node:fs/promises";
import path from "node:path";
import {
  attributesOf,
  elementsOf,
  parseHtml,
  startTagSource,
  textOf,
  type HtmlElement,
} from "./html";
import { listFiles } from "./list-files";
import { contactsWarmUpRequest, type SupabaseEndpoint } from "../src/lib/contacts-warm-up";
import {
  CONTACT_FORM_ID,
  FORM_NEAR_MARGIN,
  MEETING_FORM_CONTENT_ID,
  WARMED_UP_ATTRIBUTE,
} from "../src/lib/page-markers";

/** The webpack entry of the pages' start-up script (added in gatsby-node.ts, onCreateWebpackConfig). */
export const PAGE_BOOT_ENTRY = "page-boot";
const LOADER_ID = "page-scripts";

export class PageScriptsError extends Error {
  override name = "PageScriptsError";
}

export type RewrittenPage = {
  html: string;
  /** Gatsby's runtime scripts taken out: the src of each chunk tag, the id or text of each inline one. */
  removed: string[];
  /** Start tags of scripts with a src that the page still loads during parsing. */
  unrecognised: string[];
};

/** How long the loader waits for a first paint before it starts the scripts anyway (a tab opened in the background paints nothing). */
export const LOADER_FALLBACK_MS = 3000;

/**
 * The inline loader: adds `scripts` (async, in order, at high priority: a dynamically added async
 * script is otherwise low, behind the submit path's preload near the form) once the browser reports the page's first
 * paint (a Paint Timing entry, which arrives after the frame is on screen), or after
 * LOADER_FALLBACK_MS where no paint is reported. Starting at requestAnimationFrame instead would
 * request them between the first frame's painting and its presentation, so Lighthouse would count
 * their download as part of the wait for the page's largest paint. At the same moment it asks the
 * browser to prefetch `later` (the form's chunks, which page-boot starts when the form is needed):
 * on a slow network they then download beside page-boot instead of after it, and are in the cache
 * when it asks for them. A prefetch runs nothing.
 */
export function loaderScript(
  scripts: readonly string[],
  later: readonly string[] = [],
  nearForm?: NearFormWarmUp,
): string {
  return (
    `(function(){var s=${JSON.stringify(scripts)},p=${JSON.stringify(later)},d=0;` +
    `function l(){if(d)return;d=1;var i,e;for(i=0;i<s.length;i++){e=document.createElement("script");e.src=s[i];e.async=true;e.fetchPriority="high";document.body.appendChild(e)}` +
    `for(i=0;i<p.length;i++){e=document.createElement("link");e.rel="prefetch";e.as="script";e.href=p[i];document.head.appendChild(e)}}` +
    `try{new PerformanceObserver(l).observe({type:"paint",buffered:true})}catch(e){}setTimeout(l,${LOADER_FALLBACK_MS})` +
    (nearForm ? warmUpWhenNear(nearForm) : "") +
    `})()`
  );
}

/** What the loader does when the form's section nears the viewport (see warmUpWhenNear). */
export type NearFormWarmUp = {
  /** The section's id, and how near counts (an IntersectionObserver root margin). */
  sectionId: string;
  margin: string;
  /** The attribute the section gets, with the time of the warm-up (performance.now()), for page-boot. */
  attribute: string;
  /** The insert with no rows (src/lib/contacts-warm-up.ts, contactsWarmUpRequest). */
  request: [string, RequestInit];
  /** The submit path's scripts, to preload. */
  preload: readonly string[];
};

/**
 * The part of the loader that opens the way to Supabase the moment the form's section comes near
 * the viewport, from the first layout on, without waiting for page-boot (which arrives one round
 * trip and more after the first paint): a preconnect for the insert's connection, the warm-up
 * request (it opens the one Chromium sends preflights on and leaves the preflight's answer
 * cached), and a preload of the submit path (supabase-js, REST only), which page-boot then runs.
 * A visitor who never nears the form causes none of it. page-boot reads the attribute and keeps
 * the way warm while the visitor stays (src/lib/keep-submit-warm.ts).
 */
function warmUpWhenNear({
  sectionId,
  margin,
  attribute,
  request,
  preload,
}: NearFormWarmUp): string {
  const origin = new URL(request[0]).origin;
  return (
    `;var w=${JSON.stringify(request)},n=${JSON.stringify(preload)},f=document.getElementById(${JSON.stringify(sectionId)});` +
    `function g(){var i,e=document.createElement("link");e.rel="preconnect";e.href=${JSON.stringify(origin)};e.crossOrigin="anonymous";document.head.appendChild(e);` +
    `for(i=0;i<n.length;i++){e=document.createElement("link");e.rel="preload";e.as="script";e.href=n[i];document.head.appendChild(e)}` +
    `f.setAttribute(${JSON.stringify(attribute)},String(performance.now()));fetch(w[0],w[1]).catch(function(){})}` +
    `if(f&&typeof IntersectionObserver=="function"){var o=new IntersectionObserver(function(a){for(var i=0;i<a.length;i++)if(a[i].isIntersecting){o.disconnect();g();return}},{rootMargin:${JSON.stringify(margin)}});o.observe(f)}`
  );
}

/**
 * The scripts a built page's loader starts, in order (none when the page has no loader). The loader
 * is recognised by its code, so that builds from before this file had its name (their loader had
 * another id) are read the same way: `npm run audit -- --baseline` measures such builds.
 */
export function scriptsStartedBy(html: string): string[] {
  for (const element of elementsOf(parseHtml(html))) {
    if (element.tagName !== "script" || attributesOf(element).has("src")) continue;
    const list = /^\(function\(\)\{var s=(\[[^\]]*\]),(?:p=\[[^\]]*\],)?d=0;/.exec(textOf(element));
    if (list) return JSON.parse(list[1]!) as string[];
  }
  return [];
}

/** The part of webpack.stats.json (written by Gatsby into public/) that names each chunk group's files. */
export type WebpackStats = {
  namedChunkGroups?: Record<string, { assets: Array<string | { name: string }> } | undefined>;
};

/** The script files of one chunk group, in webpack's order (its runtime first); undefined when the build has no such group. */
export function chunkGroupScripts(stats: WebpackStats, groupName: string): string[] | undefined {
  return stats.namedChunkGroups?.[groupName]?.assets
    .map((asset) => (typeof asset === "string" ? asset : asset.name))
    .filter((name) => name.endsWith(".js"));
}

/** The chunk group page-boot loads when the form is needed (its webpackChunkName in src/lib/toasts.ts). */
export const FORM_CHUNK_GROUP = "meeting-form";
/** The submit path: supabase-js and the insert (webpackChunkName in src/lib/meeting-request.ts), preloaded when the form nears the viewport. */
export const SUBMIT_CHUNK_GROUP = "submit-path";

function scriptsOfGroup(stats: WebpackStats, groupName: string, whereFrom: string): string[] {
  const names = chunkGroupScripts(stats, groupName);
  if (!names)
    throw new PageScriptsError(
      `webpack.stats.json has no "${groupName}" chunk group: ${whereFrom}.`,
    );
  return names.map((name) => `/${name}`);
}

/**
 * What the loader starts: the page-boot entry's scripts in the order webpack lists them (its
 * runtime first), and the form's scripts to prefetch (those page-boot does not already load), as
 * site paths.
 */
export function pageBootScripts(stats: WebpackStats): {
  scripts: string[];
  later: string[];
  submitPath: string[];
} {
  const scripts = scriptsOfGroup(
    stats,
    PAGE_BOOT_ENTRY,
    "gatsby-node.ts (onCreateWebpackConfig) adds this entry to the build",
  );
  const form = scriptsOfGroup(stats, FORM_CHUNK_GROUP, "src/lib/toasts.ts names the form's chunk");
  const submitPath = scriptsOfGroup(
    stats,
    SUBMIT_CHUNK_GROUP,
    "src/lib/meeting-request.ts names the submit path's chunk",
  );
  return {
    scripts,
    later: form.filter((name) => !scripts.includes(name)),
    submitPath: submitPath.filter((name) => !scripts.includes(name)),
  };
}

/** Gatsby's tag for an initial chunk: a same-origin src ending in .js, async, nothing else. */
function chunkSource(element: HtmlElement): string | undefined {
  const attributes = attributesOf(element);
  const src = attributes.get("src");
  const isChunk =
    attributes.size === 2 &&
    attributes.has("async") &&
    src !== undefined &&
    /^\/(?!\/)[^"<>]+\.js$/.test(src);
  return isChunk ? src : undefined;
}

/** Inline scripts that only Gatsby's runtime reads: the page's path and the chunk map (by id), the compilation hash (by its text). */
const GATSBY_RUNTIME_INLINE_IDS = new Set(["gatsby-script-loader", "gatsby-chunk-mapping"]);
const COMPILATION_HASH = /^window\.___webpackCompilationHash="[0-9a-f]*";$/;

/** What identifies one of Gatsby's runtime scripts, or undefined when the element is none of them. */
function gatsbyRuntimeScript(element: HtmlElement): string | undefined {
  const attributes = attributesOf(element);
  const id = attributes.get("id");
  const text = textOf(element).trim();
  if (id !== undefined && GATSBY_RUNTIME_INLINE_IDS.has(id) && attributes.size === 1)
    return `#${id}`;
  if (attributes.size === 0 && COMPILATION_HASH.test(text)) return text;
  return chunkSource(element);
}

/**
 * Takes Gatsby's runtime scripts out of a page and puts the loader of `scripts` where the first
 * chunk tag was. A page without them, or one already rewritten, is returned unchanged.
 */
export function startPageBootInstead(
  html: string,
  {
    scripts,
    later,
    nearForm,
  }: { scripts: readonly string[]; later: readonly string[]; nearForm?: NearFormWarmUp },
): RewrittenPage {
  const scriptElements = [...elementsOf(parseHtml(html))].filter(
    (element) => element.tagName === "script",
  );
  const alreadyRewritten = scriptElements.some(
    (element) => attributesOf(element).get("id") === LOADER_ID,
  );
  const runtime = alreadyRewritten
    ? []
    : scriptElements.filter((element) => gatsbyRuntimeScript(element) !== undefined);
  const unrecognised = scriptElements
    .filter((element) => attributesOf(element).has("src") && !runtime.includes(element))
    .map((element) => startTagSource(html, element));
  if (runtime.length === 0) return { html, removed: [], unrecognised };

  const loaderPlace = runtime.find((element) => attributesOf(element).has("src")) ?? runtime[0]!;
  let rewritten = html;
  // From the last tag to the first, so that earlier offsets stay valid.
  for (const element of [...runtime].reverse()) {
    const { startOffset, endOffset } = element.sourceCodeLocation!;
    const replacement =
      element === loaderPlace
        ? `<script id="${LOADER_ID}">${loaderScript(scripts, later, nearForm)}</script>`
        : "";
    rewritten = rewritten.slice(0, startOffset) + replacement + rewritten.slice(endOffset);
  }
  return {
    html: rewritten,
    removed: runtime.map((element) => gatsbyRuntimeScript(element)!),
    unrecognised,
  };
}

/**
 * Gatsby's pages hold its root element. Other HTML in public/ (the content editor at /admin/,
 * written by plugins/cms-admin) loads its own scripts and is left as it is.
 */
function isGatsbyPage(html: string): boolean {
  return html.includes('id="___gatsby"');
}

/**
 * Rewrites every page in publicDir to start the page-boot entry (read from publicDir's
 * webpack.stats.json); returns how many pages start it. Throws PageScriptsError when a page keeps
 * a script tag the rewrite does not recognise, or when no page at all was rewritten.
 */
export async function startPageBootInDirectory(
  publicDir: string,
  supabase?: SupabaseEndpoint,
): Promise<number> {
  const stats = JSON.parse(
    await fs.readFile(path.join(publicDir, "webpack.stats.json"), "utf8"),
  ) as WebpackStats;
  const { scripts, later, submitPath } = pageBootScripts(stats);
  const nearForm: NearFormWarmUp | undefined =
    supabase?.url && supabase.anonKey
      ? {
          sectionId: CONTACT_FORM_ID,
          margin: FORM_NEAR_MARGIN,
          attribute: WARMED_UP_ATTRIBUTE,
          request: contactsWarmUpRequest(supabase),
          preload: submitPath,
        }
      : undefined;
  const loads = { scripts, later, nearForm };
  const htmlFiles = (await listFiles(publicDir)).filter((name) => name.endsWith(".html"));
  const problems: string[] = [];
  let rewritten = 0;
  for (const file of htmlFiles) {
    const full = path.join(publicDir, file);
    const original = await fs.readFile(full, "utf8");
    if (!isGatsbyPage(original)) continue;
    // Only a page with the form prefetches the form's scripts (not the not-found page).
    const page = startPageBootInstead(
      original,
      original.includes(`id="${MEETING_FORM_CONTENT_ID}"`) ? loads : { scripts, later: [] },
    );
    problems.push(...page.unrecognised.map((tag) => `${file}: ${tag}`));
    if (page.removed.length > 0) await fs.writeFile(full, page.html);
    if (page.html.includes(`id="${LOADER_ID}"`)) rewritten += 1;
  }
  if (problems.length > 0 || rewritten === 0) {
    throw new PageScriptsError(
      [
        problems.length > 0
          ? `These script tags would still load while the page is parsed:\n  ${problems.join("\n  ")}`
          : `No page under ${publicDir} has Gatsby's script tags to replace (${htmlFiles.length} HTML files).`,
        'build-time/page-scripts.ts expects Gatsby\'s initial chunks as <script src="/….js" async></script>; if a Gatsby upgrade changed them, update chunkSource() there.',
      ].join("\n"),
    );
  }
  return rewritten;
}
