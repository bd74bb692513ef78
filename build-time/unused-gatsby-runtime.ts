/**
 * Gatsby code that every production page downloads and this site never runs, replaced in the
 * browser bundle (gatsby-node.ts, onCreateWebpackConfig, stage build-javascript only):
 *
 * - the internal Partytown plugin's gatsby-browser.js: it acts only in `gatsby develop`, but
 *   requires `gatsby-script` and Partytown's snippet code unconditionally (CommonJS, so webpack
 *   cannot leave them out): ~1.9 KB gzip. `<Script>` itself still works: pages import it from
 *   "gatsby", and off-main-thread scripts are set up in the HTML, not by this file.
 * - the service-worker registration (~0.5 KB gzip), loaded only when a plugin registers a service
 *   worker. Its stand-in throws if that ever happens (build-time/browser-stubs/no-service-worker.js).
 *
 * Issue 14 (docs/performance.md): with them out, the landing page's initial JavaScript is below a
 * bare Gatsby page's.
 */
import fs from "node:fs";
import path from "node:path";

/** The replaced files, relative to the site's folder, and what stands in for each (in build-time/browser-stubs/). */
export const UNUSED_GATSBY_RUNTIME: ReadonlyArray<{ file: string; standIn: string }> = [
  { file: "node_modules/gatsby/dist/internal-plugins/partytown/gatsby-browser.js", standIn: "no-browser-apis.js" },
  { file: ".cache/register-service-worker.js", standIn: "no-service-worker.js" },
];

/**
 * webpack `resolve.alias` entries for the site in `siteDir`: each replaced file, under its path and
 * under its real path (node_modules may be a link), to its stand-in.
 */
export function unusedGatsbyRuntimeAliases(siteDir: string): Record<string, string> {
  const aliases: Record<string, string> = {};
  for (const { file, standIn } of UNUSED_GATSBY_RUNTIME) {
    const target = path.join(siteDir, "build-time", "browser-stubs", standIn);
    const replaced = path.join(siteDir, file);
    aliases[replaced] = target;
    if (fs.existsSync(replaced)) aliases[fs.realpathSync(replaced)] = target;
  }
  return aliases;
}
