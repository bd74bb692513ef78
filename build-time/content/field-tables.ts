/**
 * The field tables of content/README.md, generated from the content schemas: one table per
 * content file with every field, whether it is required, what it is (the schema's description)
 * and an example (the schema's own). `npm run content:schemas` writes them between the markers;
 * a test fails while the README's tables differ from the schemas.
 */
import { z } from "zod";
import { CONTENT_FILES, type ContentFileSpec } from "./content-files";

export const TABLES_START =
  "<!-- field tables: generated from build-time/content/schemas by npm run content:schemas -->";
export const TABLES_END = "<!-- end of generated field tables -->";

type Row = { field: string; required: string; description: string; example: string };

/** The schema's example as it is written in YAML: text in double quotes, a year without. */
function exampleOf(schema: z.ZodType): string {
  const examples = schema.meta()?.examples;
  const first: unknown = Array.isArray(examples) ? examples[0] : undefined;
  if (first === undefined) return "";
  return schema instanceof z.ZodNumber
    ? `\`${String(first)}\``
    : `\`${JSON.stringify(String(first))}\``;
}

function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\s+/g, " ").trim();
}

function rows(shape: z.ZodRawShape, prefix: string): Row[] {
  return Object.entries(shape).flatMap(([name, value]) => {
    const schema = value as z.ZodType;
    const field = `${prefix}${name}`;
    const description = schema.meta()?.description ?? "";
    if (schema instanceof z.ZodArray) {
      const element = schema.element as z.ZodType;
      const min = z.toJSONSchema(schema, { unrepresentable: "any" }).minItems;
      const own: Row = {
        field,
        required: min ? `yes, at least ${min}` : "yes",
        description,
        example: "",
      };
      if (element instanceof z.ZodObject) return [own, ...rows(element.shape, `${field}[].`)];
      return [
        own,
        {
          field: `${field}[]`,
          required: "—",
          description: element.meta()?.description ?? "",
          example: exampleOf(element),
        },
      ];
    }
    if (schema instanceof z.ZodObject)
      return [
        { field, required: "yes", description, example: "" },
        ...rows(schema.shape, `${field}.`),
      ];
    if (schema instanceof z.ZodOptional)
      return [
        {
          field,
          required: "no",
          description: (schema.unwrap() as z.ZodType).meta()?.description ?? "",
          example: "",
        },
      ];
    return [{ field, required: "yes", description, example: exampleOf(schema) }];
  });
}

export function fieldTable(spec: ContentFileSpec): string {
  const lines = [
    `### \`content/${spec.name}.yaml\` — ${spec.section}`,
    "",
    "| Field | Required | What it is | Example |",
    "|---|---|---|---|",
    ...rows(spec.schema.shape, "").map(
      (row) => `| \`${row.field}\` | ${row.required} | ${cell(row.description)} | ${row.example} |`,
    ),
  ];
  return lines.join("\n");
}

/** Everything between the markers, markers included. */
export function fieldTablesMarkdown(): string {
  return [TABLES_START, ...CONTENT_FILES.map(fieldTable), TABLES_END].join("\n\n");
}

/** `readme` with its generated section replaced by the current tables; undefined without markers. */
export function withFieldTables(readme: string): string | undefined {
  const start = readme.indexOf(TABLES_START);
  const end = readme.indexOf(TABLES_END);
  if (start === -1 || end === -1 || end < start) return undefined;
  return `${readme.slice(0, start)}${fieldTablesMarkdown()}${readme.slice(end + TABLES_END.length)}`;
}
