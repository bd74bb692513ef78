import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { attributesOf, elementsOf, isExecutableScript, parseHtml, textOf } from "../../build-time/html";
import { containsSupabaseJs, formatKb, INITIAL_JS_BUDGET_GZIP_BYTES } from "./budgets";

export type ScriptCost = { name: string; bytes: number; gzipBytes: number };

export type InitialJsReport = {
  page: string;
  scripts: ScriptCost[];
  totalBytes: number;
  totalGzipBytes: number;
  /** Initial scripts that contain supabase-js (which must load only when the form is used). */
  scriptsWithSupabase: string[];
};

type WebpackStats = { namedChunkGroups?: Record<string, { assets: Array<string | { name: string }> }> };

function gzipSize(content: Buffer): number {
  return zlib.gzipSync(content, { level: 9 }).length;
}

/**
 * Every script the built page runs before any interaction: the inline scripts and `<script src>`
 * tags of its HTML, plus the chunk group of the page's component, which Gatsby's runtime loads
 * straight away (named in page-data.json, resolved through webpack.stats.json).
 */
export function measureInitialJavaScript(publicDir: string, pagePath = "/"): InitialJsReport {
  const pageDir = pagePath.replace(/^\/|\/$/g, "");
  const html = fs.readFileSync(path.join(publicDir, pageDir, "index.html"), "utf8");
  const stats = JSON.parse(fs.readFileSync(path.join(publicDir, "webpack.stats.json"), "utf8")) as WebpackStats;
  const pageData = JSON.parse(fs.readFileSync(path.join(publicDir, "page-data", pageDir || "index", "page-data.json"), "utf8")) as {
    componentChunkName: string;
  };

  const scripts: ScriptCost[] = [];
  const contents = new Map<string, Buffer>();
  const add = (name: string, content: Buffer) => {
    if (contents.has(name)) return;
    contents.set(name, content);
    scripts.push({ name, bytes: content.length, gzipBytes: gzipSize(content) });
  };

  let inlineIndex = 0;
  for (const element of elementsOf(parseHtml(html))) {
    if (element.tagName !== "script") continue;
    const attributes = attributesOf(element);
    const src = attributes.get("src");
    const body = textOf(element);
    if (src) {
      add(src.replace(/^\//, ""), fs.readFileSync(path.join(publicDir, src)));
    } else if (isExecutableScript(attributes) && body.trim()) {
      inlineIndex += 1;
      add(`inline script ${inlineIndex}`, Buffer.from(body));
    }
  }

  const groups = stats.namedChunkGroups ?? {};
  for (const groupName of ["app", pageData.componentChunkName]) {
    const group = groups[groupName];
    if (!group) throw new Error(`webpack.stats.json has no chunk group "${groupName}": is ${publicDir} a complete Gatsby build?`);
    for (const asset of group.assets) {
      const name = typeof asset === "string" ? asset : asset.name;
      if (name.endsWith(".js")) add(name, fs.readFileSync(path.join(publicDir, name)));
    }
  }

  const scriptsWithSupabase = [...contents].filter(([, content]) => containsSupabaseJs(content.toString("utf8")));

  return {
    page: pagePath,
    scripts,
    totalBytes: scripts.reduce((sum, script) => sum + script.bytes, 0),
    totalGzipBytes: scripts.reduce((sum, script) => sum + script.gzipBytes, 0),
    scriptsWithSupabase: scriptsWithSupabase.map(([name]) => name),
  };
}

export function formatInitialJsReport(report: InitialJsReport): string {
  const width = Math.max(...report.scripts.map((script) => script.name.length), 10);
  const lines = report.scripts.map(
    (script) => `  ${script.name.padEnd(width)}  ${formatKb(script.bytes).padStart(9)}  ${formatKb(script.gzipBytes).padStart(9)} gzip`,
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
