/**
 * npm run content:schemas — writes content/schemas/<name>.schema.json from the zod schemas in
 * build-time/content, and makes the first line of each content/<name>.yaml point at its schema
 * (`# yaml-language-server: $schema=./schemas/<name>.schema.json`) so editors can help.
 * It also rewrites the field tables of content/README.md from the schemas.
 * Run it after changing a schema; a test fails while the files are out of date.
 */
import fs from "node:fs";
import path from "node:path";
import { CONTENT_FILES } from "../build-time/content/content-files";
import { SCHEMAS_DIR, jsonSchemaText, schemaFileName, withSchemaComment } from "../build-time/content/json-schema";
import { withFieldTables } from "../build-time/content/field-tables";

const contentDir = path.resolve(process.argv[2] ?? "content");
const schemasDir = path.join(contentDir, SCHEMAS_DIR);
fs.mkdirSync(schemasDir, { recursive: true });

const changed: string[] = [];
function write(file: string, text: string): void {
  const before = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : undefined;
  if (before === text) return;
  fs.writeFileSync(file, text);
  changed.push(path.relative(process.cwd(), file));
}

for (const spec of CONTENT_FILES) {
  write(path.join(schemasDir, schemaFileName(spec)), jsonSchemaText(spec));
  const yamlFile = path.join(contentDir, `${spec.name}.yaml`);
  if (fs.existsSync(yamlFile)) write(yamlFile, withSchemaComment(spec, fs.readFileSync(yamlFile, "utf8")));
}

// The field tables of the editors' guide (content/README.md), between their markers.
const readmeFile = path.join(contentDir, "README.md");
const readme = fs.existsSync(readmeFile) ? withFieldTables(fs.readFileSync(readmeFile, "utf8")) : undefined;
if (readme !== undefined) write(readmeFile, readme);

console.log(changed.length === 0 ? "Content schemas are up to date." : `Updated:\n${changed.map((file) => `  ${file}`).join("\n")}`);
