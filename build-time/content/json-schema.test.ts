/**
 * The JSON Schemas in content/schemas/ are generated from the zod schemas; editors read them.
 * These tests fail when someone changes a zod schema without regenerating them.
 */
import fs from "node:fs";
import path from "node:path";
import { CONTENT_FILES } from "./content-files";
import { SCHEMAS_DIR, jsonSchemaText, schemaFileName } from "./json-schema";

const CONTENT = path.join(__dirname, "..", "..", "content");
const FIX = "Run npm run content:schemas and commit the result.";

describe("exported JSON Schemas", () => {
  it("are in step with the zod schemas", () => {
    const stale = CONTENT_FILES.filter((spec) => {
      const file = path.join(CONTENT, SCHEMAS_DIR, schemaFileName(spec));
      return !fs.existsSync(file) || fs.readFileSync(file, "utf8") !== jsonSchemaText(spec);
    }).map((spec) => `content/${SCHEMAS_DIR}/${schemaFileName(spec)}`);
    if (stale.length > 0) throw new Error(`Out of date: ${stale.join(", ")}. ${FIX}`);
  });

  it("carry descriptions, required fields and closed field lists for editors", () => {
    const solutions = CONTENT_FILES.find((spec) => spec.name === "solutions");
    if (!solutions) throw new Error("no solutions schema");
    const schema: unknown = JSON.parse(jsonSchemaText(solutions));
    expect(schema).toMatchObject({
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
});
