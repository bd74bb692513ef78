/**
 * `npm run bench:content [-- --runs N (default 7)] [--cms]`: how long a marketing editor waits, in
 * `gatsby develop`, between saving content and seeing it in the page (its h1).
 *
 * By default it rewrites `headline` in content/hero.yaml as a text editor saves it; with `--cms` it
 * saves "First screen" in /admin/ on a checkout in the browser (lib/cms-checkout.ts) and copies the
 * written hero.yaml into content/. Puts hero.yaml back, also on failure or Ctrl-C.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";

import type { Page } from "playwright-core";

import { launchChromium, requireChromium } from "../lib/chromium";
import { runCli, wholeNumberOption } from "../lib/cli";
import { filesWritten, openCheckout, pickCheckout } from "../lib/cms-checkout";
import { median } from "../lib/stats";
import { freePort, PROJECT_ROOT } from "../lib/test-build";

const CONTENT_DIR = path.join(PROJECT_ROOT, "content");
const HERO_FILE = path.join(CONTENT_DIR, "hero.yaml");
const HEADLINE_LINE = /^headline: .*$/m;
const CHANGE_TIMEOUT_MS = 30_000;

/** `gatsby develop` on a free port of 127.0.0.1, ready within 4 minutes; `stop()` ends it all. */
async function startGatsbyDevelop() {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  console.log(`bench: starting gatsby develop on port ${port}…`);
  const develop = spawn("npx", ["gatsby", "develop", "--port", `${port}`, "--host", "127.0.0.1"], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, GATSBY_TELEMETRY_DISABLED: "1" },
    detached: true,
  });
  let output = "";
  develop.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  develop.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const stop = () => {
    try {
      process.kill(-develop.pid!, "SIGTERM");
    } catch {
      // already gone
    }
  };
  const started = performance.now();
  while (!output.includes(url)) {
    const failure =
      develop.exitCode !== null
        ? `gatsby develop stopped:\n${output.slice(-2000)}`
        : performance.now() - started > 240_000 && "gatsby develop was not ready within 240 s";
    if (failure) {
      stop();
      throw new Error(failure);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { url, readySeconds: (performance.now() - started) / 1000, stop };
}

/** Until `page`'s h1 reads `text`. */
async function headlineShown(page: Page, text: string): Promise<void> {
  await page.waitForFunction(
    (expected) => document.querySelector("h1")?.textContent === expected,
    text,
    { timeout: CHANGE_TIMEOUT_MS, polling: 10 },
  );
}

/** Saves a headline in /admin/; ms until the CMS wrote hero.yaml, which is then copied to content/. */
async function saveInCms(admin: Page, headline: string) {
  await admin.getByRole("row", { name: "First screen" }).click();
  await admin.getByRole("textbox", { name: "Headline" }).fill(headline);
  const clicked = performance.now();
  await admin.getByRole("button", { name: "Save" }).click();
  let text = "";
  while (!text.includes(headline)) {
    if (performance.now() - clicked > CHANGE_TIMEOUT_MS)
      throw new Error("the CMS did not write hero.yaml");
    // A file the CMS is replacing can vanish while the checkout is read: then read again.
    const written = await filesWritten(admin).catch(() => undefined);
    text = Buffer.from(written?.["content/hero.yaml"] ?? "", "base64").toString("utf8");
  }
  fs.writeFileSync(HERO_FILE, text);
  return { clicked, written: performance.now() - clicked };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { runs: { type: "string" }, cms: { type: "boolean", default: false } },
  });
  const runs = wholeNumberOption(values.runs, "runs", 7);
  const original = fs.readFileSync(HERO_FILE, "utf8");
  if (!HEADLINE_LINE.test(original)) throw new Error(`${HERO_FILE} has no one-line "headline:".`);
  const restore = () => {
    if (fs.readFileSync(HERO_FILE, "utf8") !== original) fs.writeFileSync(HERO_FILE, original);
  };
  process.on("SIGINT", () => {
    restore();
    process.exit(130);
  });
  requireChromium(); // before develop's minutes of start-up
  const develop = await startGatsbyDevelop();
  const browser = await launchChromium();
  try {
    const context = await browser.newContext();
    const site = await context.newPage();
    await site.goto(develop.url);
    await site.getByRole("heading", { level: 1 }).waitFor();
    const cms = values.cms ? await context.newPage() : undefined;
    if (cms) {
      await pickCheckout(cms);
      await cms.goto(`${develop.url}admin/`);
      await openCheckout(cms);
    }
    const how = cms ? `saves of "First screen" in /admin/` : "saves of content/hero.yaml";
    console.log(`bench: develop ready after ${develop.readySeconds.toFixed(1)} s; ${runs} ${how}`);
    const toFile: number[] = [];
    const toPage: number[] = [];
    for (let run = 1; run <= runs; run += 1) {
      const headline = `Benchmark headline ${run} ${Date.now().toString(36)}`;
      let saved = performance.now();
      if (cms) {
        const { clicked, written } = await saveInCms(cms, headline);
        saved = clicked;
        toFile.push(written);
      } else {
        fs.writeFileSync(HERO_FILE, original.replace(HEADLINE_LINE, `headline: "${headline}"`));
      }
      await headlineShown(site, headline);
      toPage.push(performance.now() - saved);
      const file = cms ? `file written after ${toFile.at(-1)!.toFixed(0)} ms, ` : "";
      console.log(`  save ${run}: ${file}visible after ${toPage.at(-1)!.toFixed(0)} ms`);
      // An editor does not save every few milliseconds: let develop settle.
      if (cms) await cms.getByRole("row", { name: "First screen" }).waitFor();
      else await new Promise((resolve) => setTimeout(resolve, 1500));
    }
    const file = cms ? `Save → file written: median ${median(toFile).toFixed(0)} ms; ` : "";
    console.log(
      `\n${file}save → visible in the page: median ${median(toPage).toFixed(0)} ms (min ${Math.min(...toPage).toFixed(0)}, max ${Math.max(...toPage).toFixed(0)} ms, ${runs} saves)`,
    );
  } finally {
    restore();
    await browser.close();
    develop.stop();
  }
}

runCli(main);
