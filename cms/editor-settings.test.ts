/**
 * VS Code (with Red Hat's YAML extension) finds each content file's JSON Schema through
 * .vscode/settings.json, not through a first-line comment in the file: the CMS rewrites the files
 * and drops every comment. This test fails when a content file has no entry there.
 */
import fs from "node:fs";
import path from "node:path";
import { CONTENT_FILES } from "../build-time/content/content-files";
import { schemaFileName } from "../build-time/content/schema-files";

const ROOT = path.join(__dirname, "..");

it(".vscode/settings.json points every content file at its JSON Schema", () => {
  const settings: unknown = JSON.parse(
    fs.readFileSync(path.join(ROOT, ".vscode", "settings.json"), "utf8"),
  );
  const expected = Object.fromEntries(
    CONTENT_FILES.map((spec) => [`./content/${schemaFileName(spec)}`, `content/${spec.name}.yaml`]),
  );
  expect(settings).toMatchObject({ "yaml.schemas": expected });
  for (const schema of Object.keys(expected))
    expect(fs.existsSync(path.join(ROOT, schema))).toBe(true);
});
