/**
 * `npm run size [-- public]`: prints the JavaScript `/` loads before any interaction, per file and
 * in total (raw and gzip), against the initial-JavaScript budget (tools/lib/budgets.ts). Reads an
 * existing build. Exits 1 when the budget is exceeded or supabase-js leaked into the initial scripts.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { INITIAL_JS_BUDGET_GZIP_BYTES } from "./lib/budgets";
import { runCli } from "./lib/cli";
import { formatInitialJsReport, measureInitialJavaScript } from "./lib/initial-js";
import { PUBLIC_DIR } from "./lib/test-build";

async function main(): Promise<number> {
  const { positionals } = parseArgs({ args: process.argv.slice(2), allowPositionals: true });
  if (positionals.length > 1) throw new Error("Usage: npm run size [-- <built site folder, default public>]");
  const publicDir = positionals[0] ? path.resolve(positionals[0]) : PUBLIC_DIR;
  const report = measureInitialJavaScript(publicDir, "/");
  console.log(formatInitialJsReport(report));
  return report.totalGzipBytes <= INITIAL_JS_BUDGET_GZIP_BYTES && report.scriptsWithSupabase.length === 0 ? 0 : 1;
}

runCli(main);
