/**
 * No import circles in the hand-written TypeScript: every relative import counts, type-only,
 * dynamic `import()` and `require()` included (a lazy chunk's module that imports its loader is
 * still a circle to read). TypeScript's own scanner reads the imports; no dependency graph tool.
 */
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

const root = path.resolve(__dirname, "..");
const FOLDERS = [
  "src",
  "build-time",
  "local-backend",
  "supabase/tests",
  "tools",
  "e2e",
  "cms",
  "plugins",
];

function sourceFiles(): string[] {
  return FOLDERS.flatMap((folder) =>
    fs
      .readdirSync(path.join(root, folder), { recursive: true, encoding: "utf8" })
      .filter(
        (file) => /\.tsx?$/.test(file) && !file.endsWith(".d.ts") && !file.includes("node_modules"),
      )
      .map((file) => path.join(folder, file)),
  );
}

/** The files of `known` that `text` (the file `file`) imports. */
function importsOf(file: string, text: string, known: ReadonlySet<string>): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.flatMap(({ fileName }) => {
    if (!fileName.startsWith(".")) return [];
    const base = path.join(path.dirname(file), fileName);
    return [
      base,
      `${base}.ts`,
      `${base}.tsx`,
      path.join(base, "index.ts"),
      path.join(base, "index.tsx"),
    ]
      .filter((candidate) => known.has(candidate))
      .slice(0, 1);
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

it("has no import circle in src, build-time, local-backend, supabase/tests, tools, e2e, cms or plugins", () => {
  const files = sourceFiles();
  const known = new Set(files);
  const graph = new Map(
    files.map((file) => [
      file,
      importsOf(file, fs.readFileSync(path.join(root, file), "utf8"), known),
    ]),
  );
  expect(files.length).toBeGreaterThan(100);
  expect(circles(graph)).toEqual([]);
});
