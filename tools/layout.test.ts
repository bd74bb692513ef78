/**
 * The folder layout is enforced by eslint.config.mjs (no-restricted-imports per folder). These
 * tests lint small snippets as if they were files in each folder, so a rule that stops firing
 * (a renamed folder, a mistyped glob) fails here instead of silently allowing the import.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";

jest.setTimeout(120_000);

const root = path.resolve(__dirname, "..");

/** A file's path and its one line of code. */
type Case = [file: string, code: string];

/** The layout rules each snippet breaks, linted in one ESLint run (a child process: ESLint loads eslint.config.mjs as ESM). */
function layoutRulesBroken(cases: readonly Case[]): string[][] {
  const script = `
    const { ESLint } = require("eslint");
    (async () => {
      const eslint = new ESLint({ cwd: process.cwd() });
      const results = [];
      for (const [filePath, code] of JSON.parse(process.argv[1])) {
        const [result] = await eslint.lintText(code + "\\n", { filePath });
        results.push(result.messages.map((message) => message.ruleId));
      }
      process.stdout.write(JSON.stringify(results));
    })().catch((error) => { console.error(error); process.exit(1); });`;
  const run = spawnSync(process.execPath, ["-e", script, JSON.stringify(cases)], {
    cwd: root,
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(run.stderr);
  const layoutRules = new Set(["no-restricted-imports", "no-restricted-globals"]);
  return (JSON.parse(run.stdout) as Array<Array<string | null>>).map((ruleIds) =>
    ruleIds.filter((id): id is string => id !== null && layoutRules.has(id)),
  );
}

const refused: Case[] = [
  ["src/lib/x.ts", 'import fs from "node:fs";'],
  ["src/components/x.tsx", 'import path from "path";'],
  ["src/lib/x.ts", 'export const a = Buffer.from("a");'],
  ["src/lib/x.ts", 'import { finishBuild } from "../../build-time/finish-build";'],
  ["build-time/x.ts", 'import { runCli } from "../tools/lib/cli";'],
  ["build-time/x.ts", 'import { startLocalBackend } from "../local-backend";'],
  ["build-time/content/x.ts", 'import { content } from "../../e2e/support/content";'],
  ["local-backend/x.ts", 'import { runCli } from "../tools/lib/cli";'],
  ["tools/lib/x.ts", 'import { axeViolations } from "../../e2e/support/axe";'],
  ["supabase/tests/x.ts", 'import { runCli } from "../../tools/lib/cli";'],
];

const allowed: Case[] = [
  ["src/lib/x.test.ts", 'import fs from "node:fs";'],
  ["build-time/x.ts", 'import { LOCAL_ANON_KEY } from "./local-backend-defaults";'],
  ["build-time/x.ts", 'import { FIELD_LIMITS } from "../src/lib/field-limits";'],
  ["tools/x.ts", 'import { startLocalBackend } from "../local-backend";'],
  ["e2e/tests/x.spec.ts", 'import { PUBLIC_DIR } from "../../tools/lib/test-build";'],
  ["supabase/tests/x.ts", 'import { openDatabase } from "../../local-backend/database";'],
];

describe("folder layout rules (eslint.config.mjs)", () => {
  const results = layoutRulesBroken([...refused, ...allowed]);

  it.each(refused.map((testCase, index) => [...testCase, index] as const))(
    "refuses in %s: %s",
    (_file, _code, index) => {
      expect(results[index]!.length).toBeGreaterThan(0);
    },
  );

  it.each(allowed.map((testCase, index) => [...testCase, refused.length + index] as const))(
    "allows in %s: %s",
    (_file, _code, index) => {
      expect(results[index]).toEqual([]);
    },
  );
});
