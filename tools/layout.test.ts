/**
 * The folder layout is enforced by eslint.config.mjs (no-restricted-imports per folder). These
 * tests lint small snippets as if they were files in each folder, so a rule that stops firing
 * (a renamed folder, a mistyped glob) fails here instead of silently allowing the import.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";

jest.setTimeout(120_000);

const root = path.resolve(__dirname, "..");

type Case = { file: string; code: string };

/** The layout rules each snippet breaks, linted in one ESLint run (a child process: ESLint loads eslint.config.mjs as ESM). */
function layoutRulesBroken(cases: readonly Case[]): string[][] {
  const script = `
    const { ESLint } = require("eslint");
    (async () => {
      const eslint = new ESLint({ cwd: process.cwd() });
      const cases = JSON.parse(process.argv[1]);
      const results = [];
      for (const { file, code } of cases) {
        const [result] = await eslint.lintText(code, { filePath: file });
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
  { file: "src/lib/x.ts", code: 'import fs from "node:fs";\nexport const a = fs;\n' },
  { file: "src/components/x.tsx", code: 'import path from "path";\nexport const a = path;\n' },
  { file: "src/lib/x.ts", code: 'export const a = Buffer.from("a");\n' },
  {
    file: "src/lib/x.ts",
    code: 'import { finishBuild } from "../../build-time/finish-build";\nexport const a = finishBuild;\n',
  },
  {
    file: "build-time/x.ts",
    code: 'import { runCli } from "../tools/lib/cli";\nexport const a = runCli;\n',
  },
  {
    file: "build-time/x.ts",
    code: 'import { startLocalBackend } from "../local-backend";\nexport const a = startLocalBackend;\n',
  },
  {
    file: "build-time/content/x.ts",
    code: 'import { content } from "../../e2e/support/content";\nexport const a = content;\n',
  },
  {
    file: "local-backend/x.ts",
    code: 'import { runCli } from "../tools/lib/cli";\nexport const a = runCli;\n',
  },
  {
    file: "tools/lib/x.ts",
    code: 'import { axeViolations } from "../../e2e/support/axe";\nexport const a = axeViolations;\n',
  },
  {
    file: "supabase/tests/x.ts",
    code: 'import { runCli } from "../../tools/lib/cli";\nexport const a = runCli;\n',
  },
];

const allowed: Case[] = [
  { file: "src/lib/x.test.ts", code: 'import fs from "node:fs";\nexport const a = fs;\n' },
  {
    file: "build-time/x.ts",
    code: 'import { LOCAL_ANON_KEY } from "./local-backend-defaults";\nimport { FIELD_LIMITS } from "../src/lib/field-limits";\nexport const a = [LOCAL_ANON_KEY, FIELD_LIMITS];\n',
  },
  {
    file: "tools/x.ts",
    code: 'import { startLocalBackend } from "../local-backend";\nexport const a = startLocalBackend;\n',
  },
  {
    file: "e2e/tests/x.spec.ts",
    code: 'import { PUBLIC_DIR } from "../../tools/lib/test-build";\nexport const a = PUBLIC_DIR;\n',
  },
  {
    file: "supabase/tests/x.ts",
    code: 'import { openDatabase } from "../../local-backend/database";\nexport const a = openDatabase;\n',
  },
];

describe("folder layout rules (eslint.config.mjs)", () => {
  const results = layoutRulesBroken([...refused, ...allowed]);

  it.each(
    refused.map((testCase, index) => [testCase.file, testCase.code.split("\n")[0], index] as const),
  )("refuses in %s: %s", (_file, _line, index) => {
    expect(results[index]!.length).toBeGreaterThan(0);
  });

  it.each(
    allowed.map(
      (testCase, index) =>
        [testCase.file, testCase.code.split("\n")[0], refused.length + index] as const,
    ),
  )("allows in %s: %s", (_file, _line, index) => {
    expect(results[index]).toEqual([]);
  });
});
