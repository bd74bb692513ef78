/**
 * Checks the content folder: every file, every problem at once, one line each. Needs no Gatsby
 * build; Gatsby runs it through ./pipeline.ts.
 */
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { meetingTimeChecks } from "../booking-schedule";
import { CONTENT_FILES, type ContentFileSpec } from "./content-files";
import {
  closestMatch,
  describeLocation,
  findingsFromIssues,
  show,
  type ContentCheckResult,
  type ContentProblem,
  type Finding,
} from "./messages";
import { isRecord, schemaAt, unwrap, type ContentPath } from "./schema-walk";
import { parseYaml, type ParsedYaml } from "./yaml-source";

export type FileCheck = {
  problems: ContentProblem[];
  /** The file's fields, when it could be read as fields; text fields as typed. */
  data?: Record<string, unknown>;
  parsed?: ParsedYaml;
  /** The text that was checked; absent when the file could not be read. */
  source?: string;
};

/** How the content folder is named in messages: its path from the working folder ("content"). */
export function displayDirFor(contentDir: string): string {
  const shown = path.relative(process.cwd(), contentDir);
  return (shown === "" ? "." : shown).split(path.sep).join("/");
}

/** Checks one file's text. `yamlPath` is where it lives (picture paths start from its folder). */
export function checkContentText(
  spec: ContentFileSpec,
  source: string,
  where: { yamlPath: string; contentDir: string; displayPath: string },
): FileCheck {
  const problem = (finding: Omit<ContentProblem, "file">) => ({
    file: where.displayPath,
    ...finding,
  });
  // A text field keeps a number as typed (`booth: 713`, `postalCode: 04101`); the page gets this.
  const parsed = parseYaml(
    source,
    (at) => unwrap(schemaAt(spec.schema, at)) instanceof z.ZodString,
  );
  if (!parsed.ok) {
    const { line, column, message } = parsed;
    return {
      problems: [problem({ severity: "error", line, column, location: [], message })],
      source,
    };
  }
  const { data } = parsed;
  if (!isRecord(data)) {
    const found = Array.isArray(data) ? "a list" : "a single value";
    const message = `the file must contain fields written as "name: value" on separate lines, but it contains ${found}.`;
    return { problems: [problem({ severity: "error", location: [], message })], parsed, source };
  }

  const result = spec.schema.safeParse(data);
  const context = { yamlDir: path.dirname(where.yamlPath), contentDir: where.contentDir };
  const findings: Finding[] = [
    ...findingsFromIssues(result.error?.issues ?? [], {
      schema: spec.schema,
      data,
      rawOf: parsed.rawOf,
    }),
    ...(spec.checks?.(data, context) ?? []),
    ...parsed.inlineComments.map(({ path: at, comment, kept }): Finding => {
      const whole = `${kept} ${comment}`.replace(/"/g, '\\"');
      const message = `YAML reads " ${comment}" as a note for editors and drops it, so the page would show only ${show(kept)}. Put the whole text in quotes: "${whole}".`;
      return { severity: "error", path: at, message };
    }),
  ];
  // The line of the field itself, else of the item it belongs to; none for a missing top-level field.
  const lineFor = (at: ContentPath) =>
    at.map((_, i) => parsed.lineOf(at.slice(0, at.length - i))).find((line) => line !== undefined);
  const problems = findings
    .map(({ severity, path: at, message }) =>
      problem({ severity, line: lineFor(at), location: describeLocation(data, at), message }),
    )
    .sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  return { problems, data, parsed, source };
}

const CONTENT_FILE_NAMES = CONTENT_FILES.map((spec) => `${spec.name}.yaml`);

/** The names of the YAML files in the folder that the page does not read. */
export function otherYamlFiles(contentDir: string): string[] {
  const names = fs.existsSync(contentDir) ? fs.readdirSync(contentDir) : [];
  return names.filter((name) => /\.ya?ml$/i.test(name) && !CONTENT_FILE_NAMES.includes(name));
}

export function checkContentFile(
  contentDir: string,
  spec: ContentFileSpec,
  displayDir: string,
): FileCheck {
  const yamlPath = path.join(contentDir, `${spec.name}.yaml`);
  const displayPath = `${displayDir}/${spec.name}.yaml`;
  if (fs.existsSync(yamlPath)) {
    const where = { yamlPath, contentDir, displayPath };
    return checkContentText(spec, fs.readFileSync(yamlPath, "utf8"), where);
  }
  const renamed = otherYamlFiles(contentDir).find((file) =>
    closestMatch(file.replace(/\.ya?ml$/i, ""), [spec.name]),
  );
  const hint = renamed
    ? ` Is "${renamed}" meant to be this file? Rename it to ${spec.name}.yaml.`
    : "";
  const message = `the file is missing. The page needs it for: ${spec.section}.${hint}`;
  return {
    problems: [{ severity: "error", file: displayPath, location: [], message }],
  };
}

/** Checks every content file, and the folder for files the page does not read. */
export function checkContentDirectory(
  contentDir: string,
): ContentCheckResult & { files: ReadonlyMap<string, FileCheck> } {
  const displayDir = displayDirFor(contentDir);
  const checks = new Map(
    CONTENT_FILES.map((spec) => [spec.name, checkContentFile(contentDir, spec, displayDir)]),
  );
  const problems = [...checks.values()].flatMap((check) => check.problems);
  /** A finding of a check across two files, placed in the file `name`. */
  const problemIn = (name: string, { severity, path: at, message }: Finding): ContentProblem => {
    const { data, parsed } = checks.get(name)!;
    const location = describeLocation(data, at);
    const file = `${displayDir}/${name}.yaml`;
    return { severity, file, line: parsed?.lineOf(at), location, message };
  };
  const [expo, contact, meeting] = ["expo", "contact", "meeting"].map((name) => checks.get(name));

  // The booth number is in two files, and visitors see both.
  const [expoBooth, contactBooth] = [expo?.data?.booth, contact?.data?.booth];
  if (typeof expoBooth === "string" && typeof contactBooth === "string")
    if (expoBooth.trim() !== contactBooth.trim()) {
      const message = `${show(contactBooth)} differs from the booth in ${displayDir}/expo.yaml (${show(expoBooth)}). Visitors see both; make them the same.`;
      problems.push(problemIn("contact", { severity: "warning", path: ["booth"], message }));
    }

  // The form's meeting times fall on the meeting days of content/expo.yaml (docs/booking.md).
  if (expo?.data && meeting?.data)
    for (const finding of meetingTimeChecks(meeting.data, expo.data))
      problems.push(problemIn("meeting", finding));

  for (const file of otherYamlFiles(contentDir)) {
    const names = CONTENT_FILES.map((spec) => spec.name);
    const guess = closestMatch(file.replace(/\.ya?ml$/i, ""), names);
    const hint = guess ? ` Did you mean ${guess}.yaml?` : "";
    const message = `the page does not read this file, so its text will not appear.${hint} The page reads: ${CONTENT_FILE_NAMES.join(", ")}.`;
    problems.push({ severity: "warning", file: `${displayDir}/${file}`, location: [], message });
  }

  return {
    errors: problems.filter((problem) => problem.severity === "error"),
    warnings: problems.filter((problem) => problem.severity === "warning"),
    filesChecked: CONTENT_FILES.length,
    files: new Map(
      [...checks].map(([name, check]) => [path.resolve(contentDir, `${name}.yaml`), check]),
    ),
  };
}
