/**
 * The JSON Schemas in content/schemas/ and the field tables of content/README.md are generated
 * from the zod schemas; these tests fail when someone changes a schema without regenerating them.
 */
import fs from "node:fs";
import path from "node:path";
import { CONTENT_FILES, contentFileSpec } from "./content-files";
import { fieldTable, jsonSchemaText, schemaFileName, schemaFiles } from "./schema-files";

const CONTENT = path.join(__dirname, "..", "..", "content");
const solutions = contentFileSpec("solutions")!;

it("content/schemas/*.json and content/README.md's field tables are in step with the zod schemas", () => {
  const stale = schemaFiles(CONTENT)
    .filter(({ file, text }) => !fs.existsSync(file) || fs.readFileSync(file, "utf8") !== text)
    .map(({ file }) => path.relative(path.dirname(CONTENT), file));
  if (stale.length > 0)
    throw new Error(
      `Out of date: ${stale.join(", ")}. Run npm run content:schemas and commit the result.`,
    );
});

// VS Code (with Red Hat's YAML extension) finds each file's JSON Schema through
// .vscode/settings.json: a first-line comment in the file would not survive the CMS.
it(".vscode/settings.json points every content file at its JSON Schema", () => {
  const settings: unknown = JSON.parse(
    fs.readFileSync(path.join(CONTENT, "..", ".vscode", "settings.json"), "utf8"),
  );
  const expected = Object.fromEntries(
    CONTENT_FILES.map((spec) => [`./content/${schemaFileName(spec)}`, `content/${spec.name}.yaml`]),
  );
  expect(settings).toMatchObject({ "yaml.schemas": expected });
});

it("JSON Schemas carry descriptions, required fields and closed field lists for editors", () => {
  expect(JSON.parse(jsonSchemaText(solutions))).toMatchObject({
    $schema: "http://json-schema.org/draft-07/schema#",
    title: "Platform solutions (content/solutions.yaml)",
    additionalProperties: false,
    required: ["heading", "intro", "ctaLabel", "ctaAboutWord", "offerings"],
    properties: {
      offerings: {
        minItems: 1,
        items: {
          additionalProperties: false,
          properties: {
            headerStyle: {
              enum: ["ocean", "teal", "violet", "amber", "slate"],
              description: expect.stringContaining("colour"),
            },
          },
        },
      },
    },
  });
});

it("field tables list nested fields, list minimums, and what each item of a plain list is", () => {
  const table = fieldTable(solutions);
  expect(table).toContain(
    "| `offerings` | yes, at least 1 | The offering cards, in the order they appear on the page. |  |",
  );
  expect(table).toContain(
    '| `offerings[].headerStyle` | yes | The colour of the card\'s header. One of: ocean, teal, violet, amber, slate. | `"ocean"` |',
  );
  expect(table).toContain(
    '| `offerings[].highlights` | yes, at least 1 | The highlight sentences listed on the card. One per line, starting with "- ". Each item: One highlight sentence. |  |',
  );
});
