// ESLint: TypeScript's recommended rules, React hooks, and jsx-a11y so accessibility mistakes
// (missing labels, interactive roles on the wrong element) fail before a person meets them.
import { builtinModules } from "node:module";
import js from "@eslint/js";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/**
 * The folder layout (docs/architecture.md): src/lib ← build-time ← local-backend ← tools ← e2e.
 * A folder imports only from folders to its left; src/ (what ships to the browser) imports no
 * Node built-in outside its tests. tools/layout.test.ts proves these rules fire.
 */
const foldersImportedFrom = (folders, why) => ({
  regex: `(^|/)(${folders.join("|")})(/|$)`,
  message: `${why} (dependency direction: src/lib ← build-time ← local-backend ← tools ← e2e).`,
});
const NODE_BUILTINS = [
  ...new Set([
    ...builtinModules,
    ...builtinModules.map((name) => (name.startsWith("node:") ? name : `node:${name}`)),
  ]),
];
const BROWSER_CODE_MESSAGE =
  "src/ ships to the browser: Node built-ins only in tests; build-time code goes to build-time/.";
const layoutRule = (patterns, paths = []) => ({
  "no-restricted-imports": ["error", { paths, patterns }],
});

export default tseslint.config(
  {
    ignores: [
      "public/",
      ".cache/",
      "node_modules/",
      "coverage/",
      "reports/",
      "test-results/",
      "screenshots/",
      "src/gatsby-types.d.ts",
      ".data/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks, "jsx-a11y": jsxA11y },
    languageOptions: {
      globals: { ...globals.browser, ...globals.node },
      parserOptions: { ecmaFeatures: { jsx: true } },
    },
    rules: {
      ...jsxA11y.flatConfigs.strict.rules,
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
      // A variable a signal handler reads before the async start-up assigns it.
      "prefer-const": ["error", { ignoreReadBeforeAssign: true }],
    },
  },
  {
    files: ["src/**/*.{ts,tsx}"],
    ignores: ["src/**/*.test.{ts,tsx}", "src/**/*.node-test.ts", "src/test-support/**"],
    rules: {
      ...layoutRule(
        [
          foldersImportedFrom(
            ["build-time", "local-backend", "tools", "e2e"],
            "src/ imports nothing from the build, backend or tooling folders",
          ),
        ],
        NODE_BUILTINS.map((name) => ({ name, message: BROWSER_CODE_MESSAGE })),
      ),
      "no-restricted-globals": ["error", { name: "Buffer", message: BROWSER_CODE_MESSAGE }],
    },
  },
  {
    files: ["build-time/**/*.ts"],
    rules: layoutRule([
      foldersImportedFrom(
        ["local-backend", "tools", "e2e"],
        "build-time/ runs inside gatsby build and imports only src/lib",
      ),
    ]),
  },
  {
    files: ["local-backend/**/*.ts"],
    rules: layoutRule([
      foldersImportedFrom(["tools", "e2e"], "local-backend/ imports only build-time and src/lib"),
    ]),
  },
  {
    // The database tests sit between the local backend and the tools.
    files: ["supabase/tests/**/*.ts"],
    rules: layoutRule([
      foldersImportedFrom(
        ["tools", "e2e"],
        "supabase/tests/ imports only local-backend, build-time and src/lib",
      ),
    ]),
  },
  {
    files: ["tools/**/*.ts"],
    rules: layoutRule([foldersImportedFrom(["e2e"], "tools/ never imports the e2e tests")]),
  },
  {
    // Playwright fixtures that need no other fixture are declared as `async ({}, use) => …`.
    files: ["e2e/**/*.ts"],
    rules: { "no-empty-pattern": "off" },
  },
  {
    files: ["**/*.js", "**/*.cjs"],
    languageOptions: { globals: { ...globals.node, ...globals.jest }, sourceType: "commonjs" },
    rules: {
      "@typescript-eslint/no-require-imports": "off",
      "@typescript-eslint/no-unused-vars": ["error", { ignoreRestSiblings: true }],
      "no-redeclare": ["error", { builtinGlobals: false }],
    },
  },
);
