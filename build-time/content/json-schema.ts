/**
 * The content schemas as JSON Schema files, so editors (VS Code with the YAML extension,
 * JetBrains IDEs) show field names, descriptions and mistakes while staff type.
 */
import { z } from "zod";
import type { ContentFileSpec } from "./content-files";

/** Where the schemas live, relative to the content folder. */
export const SCHEMAS_DIR = "schemas";

export function schemaFileName(spec: ContentFileSpec): string {
  return `${spec.name}.schema.json`;
}

/** The first line of each YAML file: tells the editor which schema to use. */
export function schemaComment(spec: ContentFileSpec): string {
  return `# yaml-language-server: $schema=./${SCHEMAS_DIR}/${schemaFileName(spec)}`;
}

/** The JSON text written to content/schemas/<name>.schema.json. */
export function jsonSchemaText(spec: ContentFileSpec): string {
  const schema = z.toJSONSchema(spec.schema, { target: "draft-7", io: "input", unrepresentable: "any" });
  return `${JSON.stringify(schema, null, 2)}\n`;
}

/** `source` with the schema comment as its first line (replacing an older one, keeping everything else). */
export function withSchemaComment(spec: ContentFileSpec, source: string): string {
  const comment = schemaComment(spec);
  const rest = source.startsWith("# yaml-language-server:") ? source.slice(source.indexOf("\n") + 1 || source.length) : source;
  return `${comment}\n${rest}`;
}
