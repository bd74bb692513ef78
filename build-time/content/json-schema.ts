/**
 * The content schemas as JSON Schema files, so editors (VS Code with the YAML extension,
 * JetBrains IDEs) show field names, descriptions and mistakes while staff type. VS Code finds them
 * through .vscode/settings.json (yaml.schemas): a first-line comment in each file would not
 * survive the CMS, which rewrites files without comments.
 */
import { z } from "zod";
import type { ContentFileSpec } from "./content-files";

/** Where the schemas live, relative to the content folder. */
export const SCHEMAS_DIR = "schemas";

export function schemaFileName(spec: ContentFileSpec): string {
  return `${spec.name}.schema.json`;
}

/** The JSON text written to content/schemas/<name>.schema.json. */
export function jsonSchemaText(spec: ContentFileSpec): string {
  const schema = z.toJSONSchema(spec.schema, {
    target: "draft-7",
    io: "input",
    unrepresentable: "any",
  });
  return `${JSON.stringify(schema, null, 2)}\n`;
}
