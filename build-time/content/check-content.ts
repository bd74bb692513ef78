/**
 * Checks the content folder: every file, every problem at once, one line each.
 * Needs no Gatsby build; Gatsby calls it too (see ./pipeline.ts).
 */
import fs from "node:fs";
import path from "node:path";
import { CONTENT_FILES, contentFileSpec, type ContentFileSpec } from "./content-files";
import { show } from "./fields";
import { findingsFromIssues } from "./issues";
import { describeLocation } from "./locations";
import type { ContentCheckResult, ContentPath, ContentProblem, Finding } from "./problems";
import { normalizeTextFields } from "./normalize";
import { isRecord } from "./schema-walk";
import { closestMatch } from "./suggest";
import { parseYaml, type ParsedYaml } from "./yaml-source";

export interface CheckOptions {
  /**
   * How the content folder is named in messages. Defaults to its path from the working
   * folder, so messages read "content/hero.yaml" when run from the project.
   */
  displayDir?: string;
}

export interface FileCheck {
  problems: ContentProblem[];
  /** The file's fields, when it could be read as a group of fields; text fields as typed (normalize.ts). */
  data?: Record<string, unknown>;
  parsed?: ParsedYaml;
  /** The text that was checked; absent when the file could not be read. */
  source?: string;
}

export function displayDirFor(contentDir: string, options: CheckOptions = {}): string {
  const shown = options.displayDir ?? path.relative(process.cwd(), contentDir);
  return (shown === "" ? "." : shown).split(path.sep).join("/");
}

/** Checks one file's text. `yamlPath` is where the file lives (picture paths start from its folder). */
export function checkContentSource(
  spec: ContentFileSpec,
  source: string,
  where: { yamlPath: string; contentDir: string; displayPath: string },
): FileCheck {
  const problem = (finding: Omit<ContentProblem, "file">): ContentProblem => ({
    file: where.displayPath,
    ...finding,
  });
  const parsed = parseYaml(source, path.basename(where.yamlPath));
  if (!parsed.ok) {
    const { line, column, message } = parsed;
    return {
      problems: [problem({ severity: "error", line, column, location: [], message })],
      source,
    };
  }
  const data = normalizeTextFields(spec.schema, parsed.data, parsed.rawOf);
  if (!isRecord(data)) {
    const found = Array.isArray(data) ? "a list" : "a single value";
    const message = `the file must contain fields written as "name: value" on separate lines, but it contains ${found}.`;
    return { problems: [problem({ severity: "error", location: [], message })], parsed, source };
  }

  const result = spec.schema.safeParse(data);
  const findings: Finding[] = [
    ...(result.success
      ? []
      : findingsFromIssues(result.error.issues, {
          schema: spec.schema,
          data,
          rawOf: parsed.rawOf,
        })),
    ...(spec.checks?.(data, {
      yamlDir: path.dirname(where.yamlPath),
      contentDir: where.contentDir,
    }) ?? []),
    ...parsed.inlineComments.map((comment): Finding => {
      const full = `${comment.kept} ${comment.comment}`;
      return {
        severity: "error",
        path: comment.path,
        message: `YAML reads " ${comment.comment}" as a note for editors and drops it, so the page would show only ${show(comment.kept)}. Put the whole text in quotes: "${full.replace(/"/g, '\\"')}".`,
      };
    }),
  ];
  const problems = findings.map((finding) =>
    problem({
      severity: finding.severity,
      line: lineFor(parsed, finding.path),
      location: describeLocation(data, finding.path),
      message: finding.message,
    }),
  );
  return { problems: sortByLine(problems), data, parsed, source };
}

/** The line of the field itself, else of the list item it belongs to; none for a missing top-level field. */
function lineFor(parsed: ParsedYaml, path: ContentPath): number | undefined {
  for (let length = path.length; length > 0; length--) {
    const line = parsed.lineOf(path.slice(0, length));
    if (line !== undefined) return line;
  }
  return undefined;
}

function sortByLine(problems: ContentProblem[]): ContentProblem[] {
  return problems
    .map((problem, order) => ({ problem, order }))
    .sort((a, b) => (a.problem.line ?? 0) - (b.problem.line ?? 0) || a.order - b.order)
    .map(({ problem }) => problem);
}

export function checkContentFile(
  contentDir: string,
  spec: ContentFileSpec,
  options: CheckOptions = {},
): FileCheck {
  const fileName = `${spec.name}.yaml`;
  const yamlPath = path.join(contentDir, fileName);
  const displayPath = `${displayDirFor(contentDir, options)}/${fileName}`;
  let source: string;
  try {
    source = fs.readFileSync(yamlPath, "utf8");
  } catch {
    const message = `the file is missing. The page needs it for: ${spec.section}.${renameHint(contentDir, spec.name)}`;
    return { problems: [{ severity: "error", file: displayPath, location: [], message }] };
  }
  return checkContentSource(spec, source, { yamlPath, contentDir, displayPath });
}

/**
 * Checks `text` as the file at `file` when that is one of the page's files (`<name>.yaml` directly
 * in the content folder); `undefined` for any other file.
 */
export function checkContentFileText(
  contentDir: string,
  file: string,
  text: string,
): (FileCheck & { displayPath: string }) | undefined {
  const root = path.resolve(contentDir);
  const yamlPath = path.resolve(file);
  if (path.dirname(yamlPath) !== root || path.extname(yamlPath) !== ".yaml") return undefined;
  const spec = contentFileSpec(path.basename(yamlPath, ".yaml"));
  if (!spec) return undefined;
  const displayPath = `${displayDirFor(root)}/${path.basename(yamlPath)}`;
  return {
    ...checkContentSource(spec, text, { yamlPath, contentDir: root, displayPath }),
    displayPath,
  };
}

function yamlFilesIn(contentDir: string): string[] {
  try {
    return fs.readdirSync(contentDir).filter((name) => /\.ya?ml$/i.test(name));
  } catch {
    return [];
  }
}

function renameHint(contentDir: string, name: string): string {
  const unknown = yamlFilesIn(contentDir).filter(
    (file) => !CONTENT_FILES.some((spec) => `${spec.name}.yaml` === file),
  );
  const candidate = unknown.find(
    (file) => closestMatch(file.replace(/\.ya?ml$/i, ""), [name]) !== undefined,
  );
  return candidate ? ` Is "${candidate}" meant to be this file? Rename it to ${name}.yaml.` : "";
}

/** Checks every content file the page reads, and the folder for files it does not read. */
export function checkContentDirectory(
  contentDir: string,
  options: CheckOptions = {},
): ContentCheckResult {
  return checkContentFolder(contentDir, options).result;
}

/** As checkContentDirectory, also giving each page file's check by its absolute path (Gatsby keeps them: ./pipeline.ts). */
export function checkContentFolder(
  contentDir: string,
  options: CheckOptions = {},
): { result: ContentCheckResult; files: ReadonlyMap<string, FileCheck> } {
  const displayDir = displayDirFor(contentDir, options);
  const checks = new Map(
    CONTENT_FILES.map((spec) => [spec.name, checkContentFile(contentDir, spec, options)]),
  );
  const problems = [...checks.values()].flatMap((check) => check.problems);
  problems.push(...boothMismatch(checks, displayDir));

  const known = CONTENT_FILES.map((spec) => `${spec.name}.yaml`);
  for (const file of yamlFilesIn(contentDir)) {
    if (known.includes(file)) continue;
    const guess = closestMatch(
      file.replace(/\.ya?ml$/i, ""),
      CONTENT_FILES.map((spec) => spec.name),
    );
    const hint = guess ? ` Did you mean ${guess}.yaml?` : "";
    problems.push({
      severity: "warning",
      file: `${displayDir}/${file}`,
      location: [],
      message: `the page does not read this file, so its text will not appear.${hint} The page reads: ${known.join(", ")}.`,
    });
  }

  const result: ContentCheckResult = {
    errors: problems.filter((problem) => problem.severity === "error"),
    warnings: problems.filter((problem) => problem.severity === "warning"),
    filesChecked: CONTENT_FILES.length,
  };
  const files = new Map(
    [...checks].map(([name, check]) => [path.resolve(contentDir, `${name}.yaml`), check]),
  );
  return { result, files };
}

/** The booth number appears in two files; visitors see both. */
function boothMismatch(
  checks: ReadonlyMap<string, FileCheck>,
  displayDir: string,
): ContentProblem[] {
  const expo = checks.get("expo");
  const contact = checks.get("contact");
  const expoBooth = expo?.data?.booth;
  const contactBooth = contact?.data?.booth;
  if (
    typeof expoBooth !== "string" ||
    typeof contactBooth !== "string" ||
    expoBooth.trim() === contactBooth.trim()
  )
    return [];
  return [
    {
      severity: "warning",
      file: `${displayDir}/contact.yaml`,
      line: contact?.parsed?.lineOf(["booth"]),
      location: ["booth"],
      message: `${show(contactBooth)} differs from the booth in ${displayDir}/expo.yaml (${show(expoBooth)}). Visitors see both; make them the same.`,
    },
  ];
}
