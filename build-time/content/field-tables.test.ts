/**
 * content/README.md's field tables are generated from the schemas (field-tables.ts); this test
 * fails when someone changes a schema without regenerating them.
 */
import fs from "node:fs";
import path from "node:path";
import { fieldTable, withFieldTables } from "./field-tables";
import { contentFileSpec } from "./content-files";

const README = path.join(__dirname, "..", "..", "content", "README.md");

it("content/README.md's field tables match the content schemas", () => {
  const readme = fs.readFileSync(README, "utf8");
  const regenerated = withFieldTables(readme);
  if (regenerated === undefined)
    throw new Error("content/README.md lost the markers around its generated field tables.");
  if (regenerated !== readme)
    throw new Error(
      "content/README.md's field tables are out of date. Run npm run content:schemas and commit the result.",
    );
});

it("lists nested fields, list items and list minimums", () => {
  const solutions = contentFileSpec("solutions");
  if (!solutions) throw new Error("no solutions schema");
  const table = fieldTable(solutions);
  expect(table).toContain(
    "| `offerings` | yes, at least 1 | The offering cards, in the order they appear on the page. |  |",
  );
  expect(table).toContain(
    '| `offerings[].headerStyle` | yes | The colour of the card\'s header. One of: ocean, teal, violet, amber, slate. | `"ocean"` |',
  );
  expect(table).toContain("| `offerings[].highlights[]` | — | One highlight sentence. |  |");
});
