/**
 * `npm run screenshots`: full-page pictures of the built site for a person to look at, written to
 * screenshots/ (git-ignored): the landing page at 390 and 1280 px, the not-found page at 390 px.
 *
 * Reuses the last e2e build when public/ is still that build (`--rebuild` builds anyway), serves
 * it like a static host and waits until every image has loaded before taking each picture.
 * Nothing is asserted: what the page must do is in e2e/tests.
 */
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import type { Browser } from "playwright-core";

import { launchChromium, requireChromium } from "./lib/chromium";
import { runCli } from "./lib/cli";
import { startStaticServer } from "./lib/static-server";
import { buildOrReuse, PROJECT_ROOT, PUBLIC_DIR } from "./lib/test-build";

const SCREENSHOTS_DIR = path.join(PROJECT_ROOT, "screenshots");
const IMAGE_TIMEOUT_MS = 10_000;

const SHOTS = [
  { name: "home-390.png", path: "/", width: 390, height: 844 },
  { name: "home-1280.png", path: "/", width: 1280, height: 800 },
  { name: "not-found-390.png", path: "/some/missing/path", width: 390, height: 844 },
];

async function takeScreenshot(
  browser: Browser,
  baseURL: string,
  shot: (typeof SHOTS)[number],
): Promise<string> {
  const context = await browser.newContext({
    baseURL,
    viewport: { width: shot.width, height: shot.height },
  });
  const page = await context.newPage();
  try {
    await page.goto(shot.path);
    await page.waitForLoadState("networkidle"); // hydrated: lazy images get their sources
    // Bring every lazy image in and wait until all have loaded, then back to the top.
    for (const image of await page.locator("img").all()) await image.scrollIntoViewIfNeeded();
    await page.waitForFunction(
      () => Array.from(document.images).every((img) => img.complete),
      undefined,
      { timeout: IMAGE_TIMEOUT_MS },
    );
    await page.evaluate(() => window.scrollTo(0, 0));
    const file = path.join(SCREENSHOTS_DIR, shot.name);
    await page.screenshot({ path: file, fullPage: true });
    return file;
  } finally {
    await context.close();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: { rebuild: { type: "boolean", default: false } },
  });
  requireChromium();
  await buildOrReuse(!values.rebuild, (line) => console.log(`screenshots: ${line}`));
  fs.mkdirSync(SCREENSHOTS_DIR, { recursive: true });

  const server = await startStaticServer({ root: PUBLIC_DIR });
  const browser = await launchChromium();
  try {
    for (const shot of SHOTS) {
      const file = await takeScreenshot(browser, server.url, shot);
      console.log(
        `screenshots: ${shot.path} at ${shot.width} px → ${path.relative(PROJECT_ROOT, file)}`,
      );
    }
  } finally {
    await browser.close();
    await server.close();
  }
}

runCli(main);
