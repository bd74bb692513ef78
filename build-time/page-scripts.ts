/**
 * onPostBuild: takes Gatsby's browser runtime (its chunk tags and the inline scripts only it reads)
 * out of every built page and puts one inline loader in its place, which starts the `page-boot`
 * entry (src/boot/entry.ts) after the first paint. A `<script src>` it does not recognise stops
 * the build, so a Gatsby upgrade cannot quietly put the runtime back. Runs before the CSP hashes.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { contactsWarmUpRequest, type SupabaseEndpoint } from "../src/lib/contacts-warm-up";
import {
  BOOKING_PAGE_ATTRIBUTE,
  CONTACT_FORM_ID,
  FORM_NEAR_MARGIN,
  MEETING_FORM_CONTENT_ID,
  WARMED_UP_ATTRIBUTE,
} from "../src/lib/page-markers";
import {
  attributesOf,
  elementsOf,
  parseHtml,
  startTagSource,
  textOf,
  type HtmlElement,
} from "./html";
import { listFiles } from "./list-files";

/** The webpack entry of the pages' start-up script (added in gatsby-node.ts, onCreateWebpackConfig). */
export const PAGE_BOOT_ENTRY = "page-boot";
/** The booking page's own entry (src/boot/booking-entry.ts), which it starts instead of page-boot. */
export const BOOKING_PAGE_ENTRY = "booking-page";
const LOADER_ID = "page-scripts";
/** How long the loader waits for a first paint (a tab opened in the background paints nothing). */
export const LOADER_FALLBACK_MS = 3000;

export class PageScriptsError extends Error {
  override name = "PageScriptsError";
}

/** What the loader does near the form: the insert with no rows, and the submit path's scripts. */
type NearForm = { request: [string, RequestInit]; preload: readonly string[] };

/**
 * The inline loader: adds `scripts` (async, high priority) at the first Paint Timing entry, or
 * after LOADER_FALLBACK_MS, and prefetches `later` (the form's chunks). Not at
 * requestAnimationFrame: that requests them before the frame is presented, and Lighthouse would
 * count their download in the largest paint.
 */
export function loaderScript(
  scripts: readonly string[],
  later: readonly string[] = [],
  nearForm?: NearForm,
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

/**
 * When the form's section comes near the viewport: a preconnect to Supabase, the warm-up request
 * (its preflight's answer is then cached) and a preload of the submit path; the section is marked
 * with the time for src/lib/keep-submit-warm.ts.
 */
function warmUpWhenNear({ request, preload }: NearForm): string {
  const origin = new URL(request[0]).origin;
  return (
    `;var w=${JSON.stringify(request)},n=${JSON.stringify(preload)},f=document.getElementById(${JSON.stringify(CONTACT_FORM_ID)});` +
    `function g(){var i,e=document.createElement("link");e.rel="preconnect";e.href=${JSON.stringify(origin)};e.crossOrigin="anonymous";document.head.appendChild(e);` +
    `for(i=0;i<n.length;i++){e=document.createElement("link");e.rel="preload";e.as="script";e.href=n[i];document.head.appendChild(e)}` +
    `f.setAttribute(${JSON.stringify(WARMED_UP_ATTRIBUTE)},String(performance.now()));fetch(w[0],w[1]).catch(function(){})}` +
    `if(f&&typeof IntersectionObserver=="function"){var o=new IntersectionObserver(function(a){for(var i=0;i<a.length;i++)if(a[i].isIntersecting){o.disconnect();g();return}},{rootMargin:${JSON.stringify(FORM_NEAR_MARGIN)}});o.observe(f)}`
  );
}

/** The scripts a built page's loader starts; none on a page without the loader. */
export function scriptsStartedBy(html: string): string[] {
  const loader = [...elementsOf(parseHtml(html))].find(
    (element) => attributesOf(element).get("id") === LOADER_ID,
  );
  const list = loader && /^\(function\(\)\{var s=(\[[^\]]*\]),/.exec(textOf(loader));
  return list ? (JSON.parse(list[1]!) as string[]) : [];
}

/** The part of webpack.stats.json (written by Gatsby into public/) that names each chunk group's files. */
export type WebpackStats = {
  namedChunkGroups?: Record<string, { assets: Array<string | { name: string }> } | undefined>;
};

/** The script files of one chunk group, in webpack's order (its runtime first). */
export function chunkGroupScripts(stats: WebpackStats, groupName: string): string[] | undefined {
  return stats.namedChunkGroups?.[groupName]?.assets
    .map((asset) => (typeof asset === "string" ? asset : asset.name))
    .filter((name) => name.endsWith(".js"));
}

/** The chunk groups the loader needs, and where each is named. */
const CHUNK_GROUPS = {
  scripts: [PAGE_BOOT_ENTRY, "gatsby-node.ts (onCreateWebpackConfig) adds this entry to the build"],
  later: ["meeting-form", "src/lib/toasts.ts names the form's chunk"],
  submitPath: ["submit-path", "src/lib/meeting-request.ts names the submit path's chunk"],
} as const;

/** A chunk group's scripts as site paths; says where the group comes from when a build lacks it. */
function sitePaths(stats: WebpackStats, [group, whereFrom]: readonly [string, string]): string[] {
  const names = chunkGroupScripts(stats, group);
  if (!names)
    throw new PageScriptsError(`webpack.stats.json has no "${group}" chunk group: ${whereFrom}.`);
  return names.map((name) => `/${name}`);
}

/** The loader's scripts, the form's to prefetch and the submit path's to preload, as site paths. */
export function pageBootScripts(stats: WebpackStats): Record<keyof typeof CHUNK_GROUPS, string[]> {
  const [scripts, later, submitPath] = Object.values(CHUNK_GROUPS).map((group) =>
    sitePaths(stats, group),
  ) as [string[], string[], string[]];
  const notInScripts = (name: string) => !scripts.includes(name);
  return {
    scripts,
    later: later.filter(notInScripts),
    submitPath: submitPath.filter(notInScripts),
  };
}

/** What identifies one of Gatsby's runtime scripts, or undefined when the element is none of them. */
function gatsbyRuntimeScript(element: HtmlElement): string | undefined {
  const attributes = attributesOf(element);
  const id = attributes.get("id");
  const src = attributes.get("src");
  // The inline scripts only the runtime reads: the page's path and the chunk map, the compilation hash.
  if ((id === "gatsby-script-loader" || id === "gatsby-chunk-mapping") && attributes.size === 1)
    return `#${id}`;
  const text = textOf(element).trim();
  if (attributes.size === 0 && /^window\.___webpackCompilationHash="[0-9a-f]*";$/.test(text))
    return text;
  // An initial chunk: a same-origin src ending in .js, async, nothing else.
  const isChunk =
    attributes.size === 2 && attributes.has("async") && /^\/(?!\/)[^"<>]+\.js$/.test(src ?? "");
  return isChunk ? src : undefined;
}

/**
 * Puts the loader where Gatsby's first chunk tag was and removes the runtime's scripts; a page
 * already rewritten is unchanged. `unrecognised`: the other `<script src>` tags still loaded.
 */
export function startPageBootInstead(
  html: string,
  loads: { scripts: readonly string[]; later: readonly string[]; nearForm?: NearForm },
): { html: string; removed: string[]; unrecognised: string[] } {
  const scriptElements = [...elementsOf(parseHtml(html))].filter(
    (element) => element.tagName === "script",
  );
  const rewritten = scriptElements.some((element) => attributesOf(element).get("id") === LOADER_ID);
  const runtime = rewritten ? [] : scriptElements.filter((element) => gatsbyRuntimeScript(element));
  const unrecognised = scriptElements
    .filter((element) => attributesOf(element).has("src") && !runtime.includes(element))
    .map((element) => startTagSource(html, element));
  if (runtime.length === 0) return { html, removed: [], unrecognised };

  const loaderPlace = runtime.find((element) => attributesOf(element).has("src")) ?? runtime[0];
  const loader = `<script id="${LOADER_ID}">${loaderScript(loads.scripts, loads.later, loads.nearForm)}</script>`;
  let result = html;
  // From the last tag to the first, so that earlier offsets stay valid.
  for (const element of [...runtime].reverse()) {
    const { startOffset, endOffset } = element.sourceCodeLocation!;
    result =
      result.slice(0, startOffset) +
      (element === loaderPlace ? loader : "") +
      result.slice(endOffset);
  }
  return {
    html: result,
    removed: runtime.map((element) => gatsbyRuntimeScript(element)!),
    unrecognised,
  };
}

/**
 * Rewrites every Gatsby page in publicDir (not /admin/); returns how many start page-boot. Throws
 * PageScriptsError on an unrecognised script tag or when no page was rewritten.
 */
export async function startPageBootInDirectory(
  publicDir: string,
  supabase?: SupabaseEndpoint,
): Promise<number> {
  const stats = JSON.parse(await fs.readFile(path.join(publicDir, "webpack.stats.json"), "utf8"));
  const { scripts, later, submitPath } = pageBootScripts(stats as WebpackStats);
  const nearForm = supabase && { request: contactsWarmUpRequest(supabase), preload: submitPath };
  const htmlFiles = (await listFiles(publicDir)).filter((name) => name.endsWith(".html"));
  const problems: string[] = [];
  let rewritten = 0;
  for (const file of htmlFiles) {
    const original = await fs.readFile(path.join(publicDir, file), "utf8");
    if (!original.includes('id="___gatsby"')) continue;
    // Only a page with the form prefetches the form's scripts (not the not-found page).
    const withForm = original.includes(`id="${MEETING_FORM_CONTENT_ID}"`);
    const page = startPageBootInstead(
      original,
      original.includes(BOOKING_PAGE_ATTRIBUTE)
        ? { scripts: sitePaths(stats, [BOOKING_PAGE_ENTRY, "gatsby-node.ts adds it"]), later: [] }
        : withForm
          ? { scripts, later, nearForm }
          : { scripts, later: [] },
    );
    problems.push(...page.unrecognised.map((tag) => `${file}: ${tag}`));
    if (page.removed.length > 0) await fs.writeFile(path.join(publicDir, file), page.html);
    if (page.html.includes(`id="${LOADER_ID}"`)) rewritten += 1;
  }
  if (problems.length === 0 && rewritten > 0) return rewritten;
  throw new PageScriptsError(
    [
      problems.length > 0
        ? `These script tags would still load while the page is parsed:\n  ${problems.join("\n  ")}`
        : `No page under ${publicDir} has Gatsby's script tags to replace (${htmlFiles.length} HTML files).`,
      'build-time/page-scripts.ts expects Gatsby\'s initial chunks as <script src="/….js" async></script>; if a Gatsby upgrade changed them, update gatsbyRuntimeScript() there.',
    ].join("\n"),
  );
}
