/**
 * npm run content:schemas — writes content/schemas/<name>.schema.json and the field tables of
 * content/README.md from the zod schemas in build-time/content. Run it after changing a schema;
 * a test fails while the files are out of date.
 */
import fs from "node:fs";
import path from "node:path";
import { schemaFiles } from "../build-time/content/schema-files";

const changed = schemaFiles(path.resolve(process.argv[2] ?? "content")).filter(({ file, text }) => {
  if (fs.existsSync(file) && fs.readFileSync(file, "utf8") === text) return false;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return true;
});
console.log(
  changed.length === 0
    ? "Content schemas are up to date."
    : `Updated:\n${changed.map(({ file }) => `  ${path.relative(process.cwd(), file)}`).join("\n")}`,
);
