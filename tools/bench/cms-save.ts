/**
 * `npm run bench:cms`: how long a marketing editor waits between clicking Save in the content
 * editor (/admin/, served by `gatsby develop`) and seeing the change in the page's preview.
 *
 *   1. starts `gatsby develop` on a free port, opens the page and /admin/ side by side in Chromium;
 *   2. "Work with Local Repository": the browser's folder picker cannot be automated, so it
 *      returns a folder in the browser's private file system holding a copy of content/, and the
 *      bench copies hero.yaml into the checkout the moment the CMS has written it (milliseconds);
 *   3. --runs N times (default 7): types a new headline in "First screen", clicks Save, and measures
 *      until the file is written and until the page's h1 shows the new text;
 *   4. puts hero.yaml back exactly as it was, also on failure or Ctrl-C, and stops develop.
 *
 * Prints each time and the medians. A figure, not a test: the machine's load moves it.
 */
import fs from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import type { Page } from "playwright-core";
import { median } from "../lib/audit-summary";
import { runCli, wholeNumberOption } from "../lib/cli";
import {
  benchEditorSaves,
  CHANGE_TIMEOUT_MS,
  headlineShown,
  HERO_FILE,
} from "../lib/gatsby-develop";

const CONTENT_DIR = path.dirname(HERO_FILE);
const FOLDER = "checkout";

/** The CMS's view of the checkout: the content files in the browser's private file system. */
async function seedCheckout(admin: Page): Promise<void> {
  const files = Object.fromEntries(
    fs
      .readdirSync(CONTENT_DIR)
      .filter((name) => name.endsWith(".yaml"))
      .map((name) => [name, fs.readFileSync(path.join(CONTENT_DIR, name), "utf8")]),
  );
  await admin.evaluate(
    async ({ folder, files }) => {
      const root = await (
        await navigator.storage.getDirectory()
      ).getDirectoryHandle(folder, { create: true });
      await root.getDirectoryHandle(".git", { create: true });
      const content = await root.getDirectoryHandle("content", { create: true });
      for (const [name, text] of Object.entries(files)) {
        const writable = await (
          await content.getFileHandle(name, { create: true })
        ).createWritable();
        await writable.write(text);
        await writable.close();
      }
    },
    { folder: FOLDER, files },
  );
}

async function writtenHero(admin: Page): Promise<string> {
  return admin.evaluate(async (folder) => {
    const root = await (await navigator.storage.getDirectory()).getDirectoryHandle(folder);
    return (
      await (await (await root.getDirectoryHandle("content")).getFileHandle("hero.yaml")).getFile()
    ).text();
  }, FOLDER);
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: { runs: { type: "string" } },
  });
  const runs = wholeNumberOption(values.runs, "runs", 7);
  return benchEditorSaves(async (develop, browser) => {
    const context = await browser.newContext();
    const site = await context.newPage();
    await site.goto(develop.url);
    await site.getByRole("heading", { level: 1 }).waitFor();

    const admin = await context.newPage();
    await admin.route("https://www.githubstatus.com/**", (route) =>
      route.fulfill({ json: { status: { indicator: "none" } } }),
    );
    // A plain assignment: tsx would wrap a named function in a helper the page does not have.
    await admin.addInitScript((folder) => {
      (
        window as unknown as { showDirectoryPicker: () => Promise<FileSystemDirectoryHandle> }
      ).showDirectoryPicker = async () =>
        (await navigator.storage.getDirectory()).getDirectoryHandle(folder);
    }, FOLDER);
    await admin.goto(`${develop.url}admin/`);
    await seedCheckout(admin);
    await admin.getByRole("button", { name: "Work with Local Repository" }).click();
    console.log(
      `bench: develop ready after ${develop.readySeconds.toFixed(1)} s, /admin/ open; ${runs} saves of "First screen"`,
    );

    const toFile: number[] = [];
    const toPreview: number[] = [];
    for (let run = 1; run <= runs; run++) {
      const headline = `Benchmark headline ${run} ${Date.now().toString(36)}`;
      await admin.getByRole("row", { name: "First screen" }).click();
      await admin.getByRole("textbox", { name: "Headline" }).fill(headline);
      const clicked = performance.now();
      await admin.getByRole("button", { name: "Save" }).click();
      let text = "";
      while (!text.includes(headline)) {
        if (performance.now() - clicked > CHANGE_TIMEOUT_MS)
          throw new Error("the CMS did not write hero.yaml");
        text = await writtenHero(admin);
      }
      toFile.push(performance.now() - clicked);
      fs.writeFileSync(HERO_FILE, text);
      await headlineShown(site, headline);
      toPreview.push(performance.now() - clicked);
      console.log(
        `  save ${run}: file written after ${toFile.at(-1)!.toFixed(0)} ms, preview after ${toPreview.at(-1)!.toFixed(0)} ms`,
      );
      await admin.getByRole("row", { name: "First screen" }).waitFor();
    }
    console.log(
      `\nSave → file written: median ${median(toFile).toFixed(0)} ms; Save → visible in the preview: median ${median(toPreview).toFixed(0)} ms (${runs} saves)`,
    );
    return 0;
  });
}

runCli(main);
