/**
 * No import circles in the hand-written TypeScript: every relative import counts, type-only,
 * dynamic `import()` and `require()` included (a lazy chunk's module that imports its loader is
 * still a circle to read). TypeScript's own scanner reads the imports; no dependency graph tool.
 */
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

const root = path.resolve(__dirname, "..");
/** What is generated or installed, not written here (hidden folders such as .git and .cache too). */
const SKIPPED = new Set(["node_modules", "public", "reports", "test-results", "screenshots"]);

/** Every hand-written module of the tree: TypeScript and JavaScript, tests, tools, e2e and Deno. */
function sourceFiles(dir = ""): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory())
      return SKIPPED.has(entry.name) || entry.name.startsWith(".") ? [] : sourceFiles(file);
    return /\.(tsx?|[mc]?js)$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [file] : [];
  });
}

const EXTENSIONS = ["", ".ts", ".tsx", ".js", ".mjs", "/index.ts", "/index.tsx", "/index.js"];

/** The files of `known` that `text` (the file `file`) imports. */
function importsOf(file: string, text: string, known: ReadonlySet<string>): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.flatMap(({ fileName }) => {
    if (!fileName.startsWith(".")) return [];
    const base = path.join(path.dirname(file), fileName);
    const found = EXTENSIONS.map((extension) => base + extension).find((c) => known.has(c));
    return found ? [found] : [];
  });
}

/** Each circle found, as the files from one back to itself. */
function circles(graph: ReadonlyMap<string, string[]>): string[] {
  const found: string[] = [];
  const done = new Set<string>();
  const trail: string[] = [];
  const visit = (file: string) => {
    const at = trail.indexOf(file);
    if (at >= 0) return void found.push([...trail.slice(at), file].join(" → "));
    if (done.has(file)) return;
    trail.push(file);
    for (const next of graph.get(file) ?? []) visit(next);
    trail.pop();
    done.add(file);
  };
  for (const file of graph.keys()) visit(file);
  return found;
}

it("reads type-only, dynamic and require() imports, and finds a circle through them", () => {
  const known = new Set(["x/a.ts", "x/b.tsx", "x/c/index.ts"]);
  const graph = new Map([
    [
      "x/a.ts",
      importsOf("x/a.ts", 'import type { B } from "./b";\nimport fs from "node:fs";', known),
    ],
    ["x/b.tsx", importsOf("x/b.tsx", 'const c = () => import("./c");', known)],
    ["x/c/index.ts", importsOf("x/c/index.ts", 'const a = require("../a");', known)],
  ]);
  expect([...graph.values()]).toEqual([["x/b.tsx"], ["x/c/index.ts"], ["x/a.ts"]]);
  expect(circles(graph)).toEqual(["x/a.ts → x/b.tsx → x/c/index.ts → x/a.ts"]);
});

it("has no import circle anywhere in the tree (supabase/functions, e2e and the root's files included)", () => {
  const files = sourceFiles();
  const known = new Set(files);
  const graph = new Map(
    files.map((file) => [
      file,
      importsOf(file, fs.readFileSync(path.join(root, file), "utf8"), known),
    ]),
  );
  for (const folder of ["src/", "supabase/functions/", "e2e/", "gatsby-node.ts"])
    expect(files.some((file) => file.startsWith(folder))).toBe(true);
  expect(circles(graph)).toEqual([]);
});
