/**
 * `npm run size [-- public]`: the JavaScript `/` loads before any interaction, per file and in
 * total, against the budget (lib/budgets.ts), beside a bare Gatsby page from the same node_modules
 * (lib/bare-gatsby.ts). Exits 1 over budget or when supabase-js is in the initial scripts; more
 * than the bare page is reported as TARGET NOT MET without failing.
 */
import { bareGatsbyBuild } from "./lib/bare-gatsby";
import { formatKb, INITIAL_JS_BUDGET_GZIP_BYTES } from "./lib/budgets";
import { builtSiteArgument, runCli } from "./lib/cli";
import {
  formatInitialJsReport,
  measureChunkGroup,
  measureInitialJavaScript,
} from "./lib/initial-js";

const listScripts = (scripts: Array<{ name: string; gzipBytes: number }>) =>
  scripts.map((script) => `  ${script.name}  ${formatKb(script.gzipBytes)} gzip`);

async function main(): Promise<number> {
  const publicDir = builtSiteArgument("size");
  const report = measureInitialJavaScript(publicDir, "/");
  console.log(formatInitialJsReport(report));
  const later = {
    "submit-path": "Loaded when the visitor nears the form: supabase-js (REST only) and the insert",
    "meeting-form":
      "Prefetched after the first paint, run when the browser is idle after the load or the visitor reaches the form: React and the form",
  };
  for (const [group, what] of Object.entries(later)) {
    const measured = measureChunkGroup(publicDir, group);
    if (!measured) continue;
    console.log(`${what} (not initial): ${formatKb(measured.totalGzipBytes)} gzip`);
    console.log(listScripts(measured.scripts).join("\n"));
  }
  // The staff's booking page starts only its own script (src/lib/booking-page.ts), which / never loads.
  const booking = measureInitialJavaScript(publicDir, "/book/");
  console.log(
    `The booking page /book/ starts its own script only: ${formatKb(booking.totalGzipBytes)} gzip`,
  );
  console.log(listScripts(booking.scripts).join("\n"));

  const bare = await bareGatsbyBuild();
  const bareReport = measureInitialJavaScript(bare.publicDir, "/");
  const difference = report.totalGzipBytes - bareReport.totalGzipBytes;
  console.log(
    [
      "",
      `A bare Gatsby page (one heading and a paragraph, same node_modules${bare.reused ? "" : `; built now in ${bare.buildSeconds.toFixed(0)} s`}): ${formatKb(bareReport.totalGzipBytes)} gzip`,
      ...listScripts(bareReport.scripts),
      difference > 0
        ? `/ loads ${formatKb(difference)} MORE than the bare Gatsby page (TARGET NOT MET: no more than the bare page).`
        : `/ loads ${formatKb(-difference)} less than the bare Gatsby page (or as much).`,
    ].join("\n"),
  );
  const withinBudget =
    report.totalGzipBytes <= INITIAL_JS_BUDGET_GZIP_BYTES &&
    report.scriptsWithSupabase.length === 0;
  return withinBudget ? 0 : 1;
}

runCli(main);
