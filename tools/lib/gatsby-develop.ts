import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { chromium, type Browser, type Page } from "playwright-core";
import { CHROMIUM_FLAGS, requireChromium } from "./chromium";
import { freePort, PROJECT_ROOT } from "./test-build";

/** The file the editor benchmarks change, and how long a saved change may take to show. */
export const HERO_FILE = path.join(PROJECT_ROOT, "content", "hero.yaml");
export const CHANGE_TIMEOUT_MS = 30_000;

export type DevelopServer = { url: string; readySeconds: number; stop: () => void };

/**
 * `gatsby develop` on a free port of 127.0.0.1, for benchmarks that watch the live preview.
 * Resolves once it prints its address; `stop()` ends it and everything it started.
 */
async function startGatsbyDevelop(readyTimeoutMs: number): Promise<DevelopServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  console.log(`bench: starting gatsby develop on port ${port}…`);
  const develop = spawn(
    "npx",
    ["gatsby", "develop", "--port", String(port), "--host", "127.0.0.1"],
    {
      cwd: PROJECT_ROOT,
      env: { ...process.env, GATSBY_TELEMETRY_DISABLED: "1" },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    },
  );
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
  const startedAt = performance.now();
  try {
    while (!output.includes(url)) {
      if (develop.exitCode !== null)
        throw new Error(`gatsby develop stopped:\n${output.slice(-2000)}`);
      if (performance.now() - startedAt > readyTimeoutMs)
        throw new Error(`gatsby develop was not ready within ${readyTimeoutMs / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } catch (error) {
    stop();
    throw error;
  }
  return { url, readySeconds: (performance.now() - startedAt) / 1000, stop };
}

/** Until `page`'s h1 reads `text` (polled every 10 ms, for at most CHANGE_TIMEOUT_MS). */
export async function headlineShown(page: Page, text: string): Promise<void> {
  await page.waitForFunction(
    (expected) => document.querySelector("h1")?.textContent === expected,
    text,
    { timeout: CHANGE_TIMEOUT_MS, polling: 10 },
  );
}

/**
 * For a benchmark of an editor's saves: starts `gatsby develop` (ready within 4 minutes) and
 * Chromium, runs `measure` with HERO_FILE's text as it was, then puts HERO_FILE back exactly as it
 * was (also on failure or Ctrl-C), closes the browser and stops develop.
 */
export async function benchEditorSaves(
  measure: (develop: DevelopServer, browser: Browser, original: string) => Promise<number>,
): Promise<number> {
  const browserLocation = requireChromium();
  const { original, restore } = rememberFile(HERO_FILE);
  const develop = await startGatsbyDevelop(240_000);
  const browser = await chromium.launch({
    executablePath: browserLocation.executablePath,
    args: [...CHROMIUM_FLAGS],
  });
  try {
    return await measure(develop, browser, original);
  } finally {
    restore();
    await browser.close();
    develop.stop();
  }
}

/** Remembers a file: `restore()` (also run on Ctrl-C) puts it back exactly as it was. */
function rememberFile(file: string): { original: string; restore: () => void } {
  const original = fs.readFileSync(file, "utf8");
  const restore = () => {
    if (fs.readFileSync(file, "utf8") !== original) fs.writeFileSync(file, original);
  };
  process.on("SIGINT", () => {
    restore();
    process.exit(130);
  });
  return { original, restore };
}
