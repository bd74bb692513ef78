/**
 * The Chromium the end-to-end tests, the audit, the screenshots and the benchmarks use, the flags
 * every one gets, and the phone they measure on.
 */
import fs from "node:fs";
import path from "node:path";

import { chromium, type Browser, type Page } from "playwright-core";

/** Flags every browser we start gets: headless, no sandbox (containers, CI), nothing phoning home. */
export const CHROMIUM_FLAGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
] as const;

/** Lighthouse's mobile screen: the phone the benchmarks and the audit's first load use. */
export const PHONE = {
  viewport: { width: 412, height: 823 },
  deviceScaleFactor: 1.75,
  isMobile: true,
  hasTouch: true,
};

const NO_CHROMIUM_MESSAGE =
  "No Chromium found: install it with `sudo apt-get install -y chromium` (Debian/Ubuntu), run `npx playwright install chromium`, or set CHROME_PATH to a Chrome or Chromium executable.";

const NAMES_ON_PATH = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"];

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** CHROME_PATH (which must be an executable), else the first on PATH, else Playwright's. */
export function requireChromium(): string {
  const fromEnv = process.env.CHROME_PATH?.trim();
  if (fromEnv) {
    if (!isExecutable(fromEnv))
      throw new Error(`CHROME_PATH is set to ${fromEnv}, which is not an executable file.`);
    return fromEnv;
  }
  for (const dir of (process.env.PATH ?? "").split(path.delimiter).filter(Boolean))
    for (const name of NAMES_ON_PATH)
      if (isExecutable(path.join(dir, name))) return path.join(dir, name);
  let downloaded = "";
  try {
    downloaded = chromium.executablePath();
  } catch {
    // Playwright has no browser of its own here.
  }
  if (downloaded && isExecutable(downloaded)) return downloaded;
  throw new Error(NO_CHROMIUM_MESSAGE);
}

/** Playwright's Chromium with our flags (Playwright adds its own headless switch) and `args`. */
export function launchChromium(args: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: requireChromium(),
    args: [...CHROMIUM_FLAGS.filter((flag) => !flag.startsWith("--headless")), ...args],
  });
}

/** A page in a fresh phone context (empty cache), its CPU slowed `cpuSlowdown`×, and its DevTools session. */
export async function phonePage(browser: Browser, cpuSlowdown: number) {
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: cpuSlowdown });
  return { context, page, cdp };
}

/** Until the page's first paint (Paint Timing). */
export async function firstPaint(page: Page): Promise<void> {
  await page.waitForFunction(
    () => performance.getEntriesByName("first-contentful-paint").length > 0,
    null,
    { polling: 10, timeout: 60_000 },
  );
}
