/**
 * `npm run size`: prints the JavaScript `/` loads before any interaction, per file and in total
 * (raw and gzip), against the 110 KB gzip budget. Reads an existing build in public/.
 * Exits 1 when the budget is exceeded or supabase-js leaked into the initial scripts.
 */
import path from "node:path";
import { formatInitialJsReport, INITIAL_JS_BUDGET_GZIP_BYTES, measureInitialJavaScript } from "./lib/initial-js";

const publicDir = path.resolve(__dirname, "..", process.argv[2] ?? "public");
const report = measureInitialJavaScript(publicDir, "/");
console.log(formatInitialJsReport(report));
process.exit(report.totalGzipBytes <= INITIAL_JS_BUDGET_GZIP_BYTES && report.scriptsWithSupabase.length === 0 ? 0 : 1);
