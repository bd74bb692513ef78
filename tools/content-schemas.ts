/**
 * npm run content:schemas — writes content/schemas/<name>.schema.json from the zod schemas in
 * build-time/content (VS Code finds them through .vscode/settings.json), and the field tables of
 * content/README.md.
 * Run it after changing a schema; a test fails while the files are out of date.
 */
import fs from "node:fs";
import path from "node:path";
import { CONTENT_FILES } from "../build-time/content/content-files";
import { SCHEMAS_DIR, jsonSchemaText, schemaFileName } from "../build-time/content/json-schema";
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
}

// The field tables of the editors' guide (content/README.md), between their markers.
const readmeFile = path.join(contentDir, "README.md");
const readme = fs.existsSync(readmeFile)
  ? withFieldTables(fs.readFileSync(readmeFile, "utf8"))
  : undefined;
if (readme !== undefined) write(readmeFile, readme);

console.log(
  changed.length === 0
    ? "Content schemas are up to date."
    : `Updated:\n${changed.map((file) => `  ${file}`).join("\n")}`,
);
