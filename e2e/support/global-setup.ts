/** Stops a bare `playwright test` early: the tests need the build and server that tools/test-e2e.ts provides. */
export default function globalSetup(): void {
  const missing = ["E2E_BASE_URL", "E2E_BACKEND_PORT", "CHROME_PATH"].filter(
    (name) => !process.env[name],
  );
  if (missing.length > 0) {
    throw new Error(
      `Missing ${missing.join(", ")}: run the end-to-end tests with \`npm run test:e2e\` (add \`-- --reuse-build\` to skip the build).`,
    );
  }
}
