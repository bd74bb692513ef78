/**
 * What `npm run content:schemas` writes from the zod schemas (a test keeps it up to date): the
 * JSON Schemas code editors read (via .vscode/settings.json) and content/README.md's field tables.
 */
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { CONTENT_FILES, type ContentFileSpec } from "./content-files";

/** A content file's JSON Schema, relative to the content folder. */
export function schemaFileName(spec: ContentFileSpec): string {
  return `schemas/${spec.name}.schema.json`;
}

export function jsonSchemaText(spec: ContentFileSpec): string {
  const options = { target: "draft-7", io: "input", unrepresentable: "any" } as const;
  return `${JSON.stringify(z.toJSONSchema(spec.schema, options), null, 2)}\n`;
}

const TABLES_START =
  "<!-- field tables: generated from build-time/content/schemas by npm run content:schemas -->";
const TABLES_END = "<!-- end of generated field tables -->";

type Row = { field: string; required: string; description: string; example: string };

/** The schema's example as YAML holds it: text in double quotes, a year without. */
function exampleOf(schema: z.ZodType): string {
  const examples = schema.meta()?.examples;
  const first: unknown = Array.isArray(examples) ? examples[0] : undefined;
  if (first === undefined) return "";
  return `\`${schema instanceof z.ZodNumber ? String(first) : JSON.stringify(String(first))}\``;
}

function rows(shape: z.ZodRawShape, prefix: string): Row[] {
  return Object.entries(shape).flatMap(([name, value]): Row[] => {
    const schema = value as z.ZodType;
    const field = `${prefix}${name}`;
    const description = schema.meta()?.description ?? "";
    const group = { field, required: "yes", description, example: "" };
    if (schema instanceof z.ZodArray) {
      const element = schema.element as z.ZodType;
      const min = z.toJSONSchema(schema, { unrepresentable: "any" }).minItems;
      const list = { ...group, required: min ? `yes, at least ${min}` : "yes" };
      if (element instanceof z.ZodObject) return [list, ...rows(element.shape, `${field}[].`)];
      const each = `${description} Each item: ${element.meta()?.description ?? "text"}`;
      return [{ ...list, description: each, example: exampleOf(element) }];
    }
    if (schema instanceof z.ZodObject) return [group, ...rows(schema.shape, `${field}.`)];
    if (schema instanceof z.ZodOptional) {
      const inner = (schema.unwrap() as z.ZodType).meta()?.description ?? "";
      return [{ ...group, required: "no", description: inner }];
    }
    return [{ ...group, example: exampleOf(schema) }];
  });
}

export function fieldTable(spec: ContentFileSpec): string {
  const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\s+/g, " ").trim();
  return [
    `### \`content/${spec.name}.yaml\` — ${spec.section}`,
    "",
    "| Field | Required | What it is | Example |",
    "|---|---|---|---|",
    ...rows(spec.schema.shape, "").map(
      (row) => `| \`${row.field}\` | ${row.required} | ${cell(row.description)} | ${row.example} |`,
    ),
  ].join("\n");
}

/** `readme` with the text between its markers replaced by the current tables. */
function withFieldTables(readme: string): string {
  const start = readme.indexOf(TABLES_START);
  const end = readme.indexOf(TABLES_END);
  if (start === -1 || end < start)
    throw new Error("content/README.md lost the markers around its generated field tables.");
  const tables = [TABLES_START, ...CONTENT_FILES.map(fieldTable), TABLES_END].join("\n\n");
  return `${readme.slice(0, start)}${tables}${readme.slice(end + TABLES_END.length)}`;
}

/** Every generated file of the content folder, with the text it should hold. */
export function schemaFiles(contentDir: string): Array<{ file: string; text: string }> {
  const readme = path.join(contentDir, "README.md");
  return [
    ...CONTENT_FILES.map((spec) => ({
      file: path.join(contentDir, schemaFileName(spec)),
      text: jsonSchemaText(spec),
    })),
    { file: readme, text: withFieldTables(fs.readFileSync(readme, "utf8")) },
  ];
}
