/**
 * `npm run test:e2e`: the end-to-end tests against the production build, in a real Chromium.
 *
 *   1. finds Chromium (CHROME_PATH, PATH, or Playwright's download) or stops with one line;
 *   2. picks a free port P and runs `npm run build` with GATSBY_SUPABASE_URL=http://127.0.0.1:P
 *      (log in reports/e2e-build.log);
 *   3. serves public/ like a static host (404.html with status 404, `_headers` applied, gzip);
 *   4. runs Playwright (playwright.config.ts); the tests start the local backend on P themselves
 *      (in memory, so every run starts empty);
 *   5. stops everything it started, also on failure or Ctrl-C.
 *
 * Options (anything else goes to `playwright test`, e.g. `-g "keyboard"` or `e2e/tests/form.spec.ts`):
 *   --reuse-build   skip the build when public/ is still the last e2e build (for working on tests)
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { buildSiteForTests, freePort, PROJECT_ROOT, PUBLIC_DIR, reusableBuild, type BuildInfo } from "../tools/lib/test-build";
import { findChromium, NO_CHROMIUM_MESSAGE } from "../tools/lib/chromium";
import { startStaticServer, type StaticServer } from "../tools/lib/static-server";

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const reuse = args.includes("--reuse-build");
  const playwrightArgs = args.filter((arg) => arg !== "--reuse-build");

  let chromium;
  try {
    chromium = findChromium();
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return 1;
  }
  if (!chromium) {
    console.error(NO_CHROMIUM_MESSAGE);
    return 1;
  }
  console.log(`e2e: Chromium ${chromium.executablePath} (from ${chromium.source})`);

  let info: BuildInfo | undefined;
  if (reuse) {
    const previous = reusableBuild();
    if (previous.ok) {
      info = previous.info;
      console.log(`e2e: reusing the build of ${info.builtAt} (backend ${info.backendUrl})`);
    } else {
      console.log(`e2e: cannot reuse the build (${previous.reason}); building`);
    }
  }
  if (!info) {
    const port = await freePort();
    console.log(`e2e: building the site for a local backend on port ${port} (npm run build, log in reports/e2e-build.log)…`);
    try {
      info = await buildSiteForTests(port);
    } catch (error) {
      console.error(error instanceof Error ? error.message : String(error));
      return 1;
    }
    console.log(`e2e: built in ${info.buildSeconds.toFixed(0)} s`);
  }

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
    child = spawn(process.execPath, [cli, "test", "--config", path.join(PROJECT_ROOT, "playwright.config.ts"), ...playwrightArgs], {
      cwd: PROJECT_ROOT,
      stdio: "inherit",
      env: {
        ...process.env,
        CHROME_PATH: chromium.executablePath,
        E2E_BASE_URL: server.url,
        E2E_BACKEND_PORT: String(info.backendPort),
        E2E_ANON_KEY: info.anonKey,
      },
    });
    const running = child;
    return await new Promise<number>((resolve, reject) => {
      running.once("error", reject);
      running.once("close", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    });
  } finally {
    await stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  },
);
