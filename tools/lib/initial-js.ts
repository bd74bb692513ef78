/**
 * The JavaScript a built page runs before any interaction, per script, raw and gzip -9 (`npm run
 * size`, `npm run audit`, the e2e budget test), and the scripts a chunk group loads later.
 */
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

import {
  attributesOf,
  elementsOf,
  isExecutableScript,
  parseHtml,
  textOf,
} from "../../build-time/html";
import {
  chunkGroupScripts,
  scriptsStartedBy,
  type WebpackStats,
} from "../../build-time/page-scripts";
import { containsSupabaseJs, formatKb, INITIAL_JS_BUDGET_GZIP_BYTES } from "./budgets";

type ScriptCost = { name: string; bytes: number; gzipBytes: number };

const cost = (name: string, content: Buffer): ScriptCost => ({
  name,
  bytes: content.length,
  gzipBytes: zlib.gzipSync(content, { level: 9 }).length,
});

/** The scripts of a chunk group, by file name; undefined when the build has no such group. */
function groupScripts(publicDir: string, groupName: string): string[] | undefined {
  const stats = fs.readFileSync(path.join(publicDir, "webpack.stats.json"), "utf8");
  return chunkGroupScripts(JSON.parse(stats) as WebpackStats, groupName);
}

/**
 * Every script the built page runs before any interaction: its HTML's scripts, what its loader
 * starts after the first paint, and, where Gatsby's runtime starts (the bare Gatsby page), the
 * page component's chunk group, which that runtime loads straight away.
 */
export function measureInitialJavaScript(publicDir: string, pagePath = "/") {
  const pageDir = pagePath.replace(/^\/|\/$/g, "");
  const html = fs.readFileSync(path.join(publicDir, pageDir, "index.html"), "utf8");
  const contents = new Map<string, Buffer>();
  const addFile = (src: string) => {
    const name = src.replace(/^\//, "");
    if (!contents.has(name)) contents.set(name, fs.readFileSync(path.join(publicDir, name)));
  };
  let inline = 0;
  for (const element of elementsOf(parseHtml(html))) {
    if (element.tagName !== "script") continue;
    const attributes = attributesOf(element);
    const src = attributes.get("src");
    if (src) addFile(src);
    else if (isExecutableScript(attributes) && textOf(element).trim())
      contents.set(`inline script ${++inline}`, Buffer.from(textOf(element)));
  }
  for (const src of scriptsStartedBy(html)) addFile(src);

  const assetsOf = (groupName: string) => {
    const names = groupScripts(publicDir, groupName);
    if (!names)
      throw new Error(
        `webpack.stats.json has no chunk group "${groupName}": is ${publicDir} a complete Gatsby build?`,
      );
    return names;
  };
  if (assetsOf("app").some((name) => contents.has(name) && name.startsWith("app-"))) {
    const pageData = path.join(publicDir, "page-data", pageDir || "index", "page-data.json");
    const { componentChunkName } = JSON.parse(fs.readFileSync(pageData, "utf8")) as {
      componentChunkName: string;
    };
    for (const name of assetsOf(componentChunkName)) addFile(name);
  }

  const scripts = [...contents].map(([name, content]) => cost(name, content));
  return {
    page: pagePath,
    scripts,
    totalBytes: scripts.reduce((sum, script) => sum + script.bytes, 0),
    totalGzipBytes: scripts.reduce((sum, script) => sum + script.gzipBytes, 0),
    /** Initial scripts that contain supabase-js (which must load only when the form is used). */
    scriptsWithSupabase: [...contents]
      .filter(([, content]) => containsSupabaseJs(content.toString("utf8")))
      .map(([name]) => name),
  };
}

/** The scripts of one chunk group loaded later (e.g. "meeting-form"); undefined when none. */
export function measureChunkGroup(
  publicDir: string,
  groupName: string,
): { scripts: ScriptCost[]; totalGzipBytes: number } | undefined {
  const names = groupScripts(publicDir, groupName);
  if (!names) return undefined;
  const scripts = names.map((name) => cost(name, fs.readFileSync(path.join(publicDir, name))));
  return { scripts, totalGzipBytes: scripts.reduce((sum, script) => sum + script.gzipBytes, 0) };
}

export function formatInitialJsReport(report: ReturnType<typeof measureInitialJavaScript>): string {
  const width = Math.max(...report.scripts.map((script) => script.name.length), 10);
  const lines = report.scripts.map(
    (script) =>
      `  ${script.name.padEnd(width)}  ${formatKb(script.bytes).padStart(9)}  ${formatKb(script.gzipBytes).padStart(9)} gzip`,
  );
  const verdict = report.totalGzipBytes <= INITIAL_JS_BUDGET_GZIP_BYTES ? "within" : "OVER";
  return [
    `Initial JavaScript of ${report.page}:`,
    ...lines,
    `  ${"total".padEnd(width)}  ${formatKb(report.totalBytes).padStart(9)}  ${formatKb(report.totalGzipBytes).padStart(9)} gzip — ${verdict} the ${formatKb(INITIAL_JS_BUDGET_GZIP_BYTES)} budget`,
    report.scriptsWithSupabase.length > 0
      ? `  supabase-js is in the initial scripts: ${report.scriptsWithSupabase.join(", ")}`
      : "  supabase-js is not in the initial scripts (it loads when the visitor reaches the form).",
  ].join("\n");
}
