import { defineConfig } from "@playwright/test";
import { CHROMIUM_FLAGS } from "./tools/lib/chromium";

/**
 * End-to-end tests: run them with `npm run test:e2e` (tools/test-e2e.ts), which builds the site,
 * serves public/ and passes E2E_BASE_URL, E2E_BACKEND_PORT and CHROME_PATH to this configuration.
 *
 * One worker: every test shares the local backend on the port baked into the build, and the
 * tests check exactly what the database holds.
 */
const missing = ["E2E_BASE_URL", "E2E_BACKEND_PORT", "CHROME_PATH"].filter(
  (name) => !process.env[name],
);
if (missing.length > 0)
  throw new Error(
    `Missing ${missing.join(", ")}: run the end-to-end tests with \`npm run test:e2e\` (add \`-- --reuse-build\` to skip the build).`,
  );

export default defineConfig({
  testDir: "./e2e/tests",
  workers: 1,
  forbidOnly: Boolean(process.env.CI),
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: [["list"]],
  use: {
    baseURL: process.env.E2E_BASE_URL,
    browserName: "chromium",
    launchOptions: {
      executablePath: process.env.CHROME_PATH,
      // Playwright adds its own headless switch; ours would duplicate it.
      args: CHROMIUM_FLAGS.filter((flag) => !flag.startsWith("--headless")),
    },
    viewport: { width: 1280, height: 800 },
    locale: "en-US",
    timezoneId: "America/New_York",
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
  },
});
