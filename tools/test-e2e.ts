/**
 * `npm run test:e2e [-- --reuse-build] [playwright test arguments]`: the end-to-end tests against
 * the production build in a real Chromium. Builds the site for a local backend on a free port P
 * (log in reports/e2e-build.log; `--reuse-build` skips it while public/ is still that build), serves
 * public/ like a static host and runs Playwright, whose tests start the backend on P in memory.
 * Stops everything it started, also on failure or Ctrl-C.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";

import { requireChromium } from "./lib/chromium";
import { runCli } from "./lib/cli";
import { startStaticServer, type StaticServer } from "./lib/static-server";
import { buildOrReuse, PROJECT_ROOT, PUBLIC_DIR } from "./lib/test-build";

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const playwrightArgs = args.filter((arg) => arg !== "--reuse-build");
  const chromium = requireChromium();
  console.log(`e2e: Chromium ${chromium}`);
  const log = (line: string) => console.log(`e2e: ${line}`);
  const info = await buildOrReuse(playwrightArgs.length < args.length, log);
  let server: StaticServer | undefined;
  let child: ChildProcess | undefined;
  const stop = async () => {
    if (child && child.exitCode === null) child.kill("SIGTERM");
    await server?.close();
  };
  const onSignal = (signal: NodeJS.Signals) => {
    void stop().finally(() => process.exit(signal === "SIGINT" ? 130 : 143));
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);

  try {
    server = await startStaticServer({ root: PUBLIC_DIR });
    console.log(`e2e: serving public/ at ${server.url}`);
    const cli = require.resolve("@playwright/test/cli");
    child = spawn(
      process.execPath,
      [cli, "test", "--config", path.join(PROJECT_ROOT, "playwright.config.ts"), ...playwrightArgs],
      {
        cwd: PROJECT_ROOT,
        stdio: "inherit",
        env: {
          ...process.env,
          CHROME_PATH: chromium,
          E2E_BASE_URL: server.url,
          E2E_BACKEND_PORT: String(info.backendPort),
        },
      },
    );
    const running = child;
    return await new Promise<number>((resolve, reject) => {
      running.once("error", reject);
      running.once("close", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    });
  } finally {
    await stop();
  }
}

runCli(main);
