import { spawn } from "node:child_process";
import fs from "node:fs";
import { performance } from "node:perf_hooks";
import { freePort, PROJECT_ROOT } from "./test-build";

export type DevelopServer = { url: string; readySeconds: number; stop: () => void };

/**
 * `gatsby develop` on a free port of 127.0.0.1, for benchmarks that watch the live preview.
 * Resolves once it prints its address; `stop()` ends it and everything it started.
 */
export async function startGatsbyDevelop(readyTimeoutMs: number): Promise<DevelopServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  console.log(`bench: starting gatsby develop on port ${port}…`);
  const develop = spawn("npx", ["gatsby", "develop", "--port", String(port), "--host", "127.0.0.1"], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, GATSBY_TELEMETRY_DISABLED: "1" },
    stdio: ["ignore", "pipe", "pipe"],
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
  const startedAt = performance.now();
  try {
    while (!output.includes(url)) {
      if (develop.exitCode !== null) throw new Error(`gatsby develop stopped:\n${output.slice(-2000)}`);
      if (performance.now() - startedAt > readyTimeoutMs) throw new Error(`gatsby develop was not ready within ${readyTimeoutMs / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } catch (error) {
    stop();
    throw error;
  }
  return { url, readySeconds: (performance.now() - startedAt) / 1000, stop };
}

/**
 * Remembers a content file a benchmark is about to edit: `restore()` (also run on Ctrl-C) puts it
 * back exactly as it was.
 */
export function rememberFile(file: string): { original: string; restore: () => void } {
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
