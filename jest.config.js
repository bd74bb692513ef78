/**
 * Two kinds of tests:
 * - "ui": React components and pure logic in jsdom, as the browser sees them.
 * - "node": the embedded local backend, the database migration and the real submit path
 *   against a local server, in plain Node (real HTTP, real PGlite).
 * @type {import('jest').Config}
 */
const shared = {
  transform: { "^.+\\.[jt]sx?$": "<rootDir>/jest-preprocess.js" },
  moduleNameMapper: {
    "\\.(css)$": "identity-obj-proxy",
    "\\.(png|jpe?g|gif|svg|webp|avif)$": "<rootDir>/__mocks__/file-mock.js",
    // The page proof's Web Worker (new URL(…, import.meta.url)): solved in-thread under Jest.
    "^\\./solve-in-worker$": "<rootDir>/__mocks__/solve-in-worker.ts",
    // jsdom would pick yaml's ES-module browser build; tests read content with its Node build.
    "^yaml$": "<rootDir>/node_modules/yaml/dist/index.js",
  },
  testPathIgnorePatterns: ["/node_modules/", "/\\.cache/", "/public/", "<rootDir>/e2e/"],
  transformIgnorePatterns: ["/node_modules/(?!(gatsby|gatsby-script|gatsby-link)/)"],
};

module.exports = {
  globalSetup: "<rootDir>/jest/temp-folder-setup.js",
  globalTeardown: "<rootDir>/jest/temp-folder-teardown.js",
  projects: [
    {
      ...shared,
      displayName: "ui",
      testEnvironment: "jsdom",
      testEnvironmentOptions: { url: "http://localhost/" },
      globals: { __PATH_PREFIX__: "" },
      setupFilesAfterEnv: ["<rootDir>/jest.setup.ts"],
      testMatch: ["<rootDir>/src/**/*.test.{ts,tsx}"],
    },
    {
      ...shared,
      displayName: "node",
      testEnvironment: "node",
      moduleNameMapper: {
        ...shared.moduleNameMapper,
        // supabase-js as the page ships it: its unused clients replaced, as gatsby-node.ts does.
        "^@supabase/(auth|realtime|storage|functions)-js$":
          "<rootDir>/src/lib/supabase-rest-only/unused-clients.ts",
      },
      // PGlite's CommonJS build uses dynamic import() of Node built-ins: see the transform's comment.
      transform: {
        "[\\\\/]@electric-sql[\\\\/]pglite[\\\\/].+\\.cjs$":
          "<rootDir>/local-backend/test-support/jest-pglite-transform.js",
        ...shared.transform,
      },
      transformIgnorePatterns: [
        "/node_modules/(?!(gatsby|gatsby-script|gatsby-link|@electric-sql/pglite)/)",
      ],
      testMatch: [
        "<rootDir>/local-backend/**/*.test.ts",
        "<rootDir>/supabase/tests/**/*.test.ts",
        "<rootDir>/tools/**/*.test.ts",
        "<rootDir>/build-time/**/*.test.ts",
        "<rootDir>/cms/**/*.test.ts",
        "<rootDir>/plugins/**/*.test.ts",
        "<rootDir>/src/**/*.node-test.ts",
      ],
    },
  ],
};
