import fs from "node:fs";
import path from "node:path";
import { chromium } from "playwright-core";

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

export const NO_CHROMIUM_MESSAGE =
  "No Chromium found: install it with `sudo apt-get install -y chromium` (Debian/Ubuntu), run `npx playwright install chromium`, or set CHROME_PATH to a Chrome or Chromium executable.";

const NAMES_ON_PATH = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"];

export type ChromiumLocation = {
  executablePath: string;
  source: "CHROME_PATH" | "PATH" | "playwright";
};

/**
 * The Chromium the end-to-end tests and the audit use: CHROME_PATH if set, else the first of
 * chromium / chromium-browser / google-chrome on PATH, else a browser downloaded by Playwright.
 * Undefined when there is none. A CHROME_PATH that does not point to an executable is an error,
 * not a reason to quietly use another browser.
 */
export function findChromium(env: NodeJS.ProcessEnv = process.env): ChromiumLocation | undefined {
  const fromEnv = env.CHROME_PATH?.trim();
  if (fromEnv) {
    if (!isExecutable(fromEnv))
      throw new Error(`CHROME_PATH is set to ${fromEnv}, which is not an executable file.`);
    return { executablePath: fromEnv, source: "CHROME_PATH" };
  }
  for (const dir of (env.PATH ?? "").split(path.delimiter).filter(Boolean)) {
    for (const name of NAMES_ON_PATH) {
      const candidate = path.join(dir, name);
      if (isExecutable(candidate)) return { executablePath: candidate, source: "PATH" };
    }
  }
  const downloaded = playwrightChromium();
  return downloaded ? { executablePath: downloaded, source: "playwright" } : undefined;
}

/** findChromium, or an error that says how to install one. */
export function requireChromium(env: NodeJS.ProcessEnv = process.env): ChromiumLocation {
  const found = findChromium(env);
  if (!found) throw new Error(NO_CHROMIUM_MESSAGE);
  return found;
}

function playwrightChromium(): string | undefined {
  try {
    const candidate = chromium.executablePath();
    return candidate && isExecutable(candidate) ? candidate : undefined;
  } catch {
    return undefined;
  }
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}
