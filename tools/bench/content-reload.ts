/**
 * `npm run bench:content`: how long a marketing editor waits, in `gatsby develop`, between
 * saving a YAML file and seeing the change in the browser.
 *
 *   1. starts `gatsby develop` on a free port (no backend needed: nothing is submitted);
 *   2. opens http://localhost:PORT/ in Chromium, as an editor has it open beside the editor;
 *   3. --runs N times (default 7): rewrites `headline` in content/hero.yaml and measures until the page's h1
 *      shows the new text (Gatsby re-runs the query and pushes it over its websocket);
 *   4. puts hero.yaml back exactly as it was, also on failure or Ctrl-C, and stops develop.
 *
 * Prints each time and the median. A figure, not a test: the machine's load moves it.
 */
import fs from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { median } from "../lib/audit-summary";
import { runCli, wholeNumberOption } from "../lib/cli";
import { benchEditorSaves, headlineShown, HERO_FILE } from "../lib/gatsby-develop";
import { PROJECT_ROOT } from "../lib/test-build";

const HEADLINE_LINE = /^headline: .*$/m;

async function main(): Promise<number> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: { runs: { type: "string" } },
  });
  const runs = wholeNumberOption(values.runs, "runs", 7);
  if (!HEADLINE_LINE.test(fs.readFileSync(HERO_FILE, "utf8"))) {
    console.error(
      `bench: ${path.relative(PROJECT_ROOT, HERO_FILE)} has no one-line "headline:" to change.`,
    );
    return 1;
  }

  return benchEditorSaves(async (develop, browser, original) => {
    console.log(
      `bench: develop ready after ${develop.readySeconds.toFixed(1)} s; ${runs} saves of content/hero.yaml`,
    );

    const page = await browser.newPage();
    await page.goto(develop.url);
    const headline = page.getByRole("heading", { level: 1 });
    await headline.waitFor();

    const times: number[] = [];
    for (let run = 1; run <= runs; run++) {
      const marker = `Benchmark headline ${run} ${Date.now().toString(36)}`;
      const saved = performance.now();
      fs.writeFileSync(HERO_FILE, original.replace(HEADLINE_LINE, `headline: "${marker}"`));
      await headlineShown(page, marker);
      const elapsed = performance.now() - saved;
      times.push(elapsed);
      console.log(`  save ${run}: ${elapsed.toFixed(0)} ms`);
      // Let develop settle before the next save, as an editor would not save every few milliseconds.
      await new Promise((resolve) => setTimeout(resolve, 1500));
    }
    const sorted = [...times].sort((a, b) => a - b);
    console.log(
      `\nsave → visible in the browser: median ${median(times).toFixed(0)} ms (min ${sorted[0]!.toFixed(0)}, max ${sorted[sorted.length - 1]!.toFixed(0)} ms, ${runs} saves)`,
    );
    return 0;
  });
}

runCli(main);
