/**
 * What the content check says: one line per problem, `content/solutions.yaml:19 › offering
 * "OptiRun" › headerStyle: "teel" is not a colour style …`. zod's issues in words, places named as
 * an editor thinks of them, "Did you mean", and the reports.
 */
import damerauLevenshtein from "damerau-levenshtein";
import { z } from "zod";
import { isRecord, schemaAt, unwrap, valueAt, type ContentPath } from "./schema-walk";

type Severity = "error" | "warning";

/** A problem in one file, before it is given a line and a readable place. */
export type Finding = {
  severity: Severity;
  path: ContentPath;
  /** What is wrong and what is expected, written to follow "<field>: ". */
  message: string;
};

export type ContentProblem = {
  severity: Severity;
  /** The file as the editor sees it, e.g. "content/solutions.yaml". */
  file: string;
  line?: number;
  /** Given for YAML syntax errors. */
  column?: number;
  /** Item and field, e.g. ['offering "OptiRun"', "headerStyle"]; empty for the whole file. */
  location: readonly string[];
  message: string;
};

export type ContentCheckResult = {
  errors: ContentProblem[];
  warnings: ContentProblem[];
  filesChecked: number;
};

/** What a field expects, in words, e.g. "an e-mail address such as meetings@example.com". */
export const fieldHelp = z.registry<{ expected: string }>();

/** Marks a failed check whose value is only spaces; it is told like an empty field. */
export const BLANK = "blank";

/** Quotes a value for a message, shortening long text. */
export function show(value: unknown): string {
  if (typeof value !== "string") return String(value);
  const flat = value.replace(/\s+/g, " ").trim();
  return `"${flat.length > 60 ? `${flat.slice(0, 57)}…` : flat}"`;
}

/**
 * The known name closest to `input` when it is a likely typo: another capitalisation, or at most
 * a third of the letters changed (at least 2 allowed; a swap of two neighbours counts as one).
 */
export function closestMatch(input: string, known: readonly string[]): string | undefined {
  const needle = input.trim().toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = damerauLevenshtein(needle, name.toLowerCase()).steps;
    if (!best || distance < best.distance) best = { name, distance };
  }
  if (!best) return undefined;
  return best.distance <= Math.max(2, Math.floor(best.name.length / 3)) ? best.name : undefined;
}

/** What one item of each list is called, in messages and on the CMS's "Add …" buttons. */
export const ITEM_NOUNS: Readonly<Record<string, string>> = {
  offerings: "offering",
  stats: "figure",
  figures: "figure",
  points: "point",
  highlights: "highlight",
  perks: "perk",
  leaders: "leader",
  productOptions: "product option",
  meetingTimeOptions: "meeting time option",
  resources: "resource link",
  legalLinks: "legal link",
  days: "meeting day",
};

/** ["offerings", 1, "headerStyle"] → ['offering "OptiRun"', "headerStyle"], items named by their first naming field. */
export function describeLocation(data: unknown, path: ContentPath): string[] {
  const segments: string[] = [];
  for (let i = 0; i < path.length; i++) {
    const [segment, next] = [path[i], path[i + 1]];
    if (typeof segment === "string" && typeof next === "number") {
      const item = valueAt(data, path.slice(0, i + 2));
      const noun = ITEM_NOUNS[segment];
      const name = ["name", "title", "role", "label", "value"]
        .map((field) => (isRecord(item) ? item[field] : undefined))
        .find((value) => typeof value === "string" && value.trim() !== "");
      segments.push(noun && name ? `${noun} ${show(name)}` : `${segment} item ${next + 1}`);
      i++;
    } else {
      segments.push(typeof segment === "string" ? segment : `item ${Number(segment) + 1}`);
    }
  }
  return segments;
}

function joinAnd(words: readonly string[]): string {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

/** "text", "a list of items, each with value and label", "an e-mail address such as …". */
function expectedPhrase(schema: z.ZodType | undefined): string {
  if (!schema) return "a value";
  const helpText = fieldHelp.get(schema)?.expected;
  if (helpText) return helpText;
  const inner = unwrap(schema);
  if (inner instanceof z.ZodObject)
    return `a group of fields on indented lines below it: ${Object.keys(inner.shape).join(", ")}`;
  if (inner instanceof z.ZodArray) {
    const item = unwrap(inner.element as z.ZodType);
    if (item instanceof z.ZodObject)
      return `a list of items, each starting with "- " and having ${joinAnd(Object.keys(item.shape))}`;
    return `a list, with each ${expectedPhrase(item)} on its own line starting with "- "`;
  }
  if (inner instanceof z.ZodString) return "text";
  if (inner instanceof z.ZodNumber) return "a number";
  return "a value";
}

type IssueContext = {
  schema: z.ZodType;
  data: unknown;
  /** The value as typed in the file, when YAML read something else (04101 → 4101). */
  rawOf(path: ContentPath): string | undefined;
};

const toPath = (path: readonly PropertyKey[]): ContentPath =>
  path.map((segment) => (typeof segment === "number" ? segment : String(segment)));

/** zod's issues as findings; a misspelt field name explains the required field it stands for. */
export function findingsFromIssues(
  issues: readonly z.core.$ZodIssue[],
  context: IssueContext,
): Finding[] {
  const findings: Finding[] = [];
  const explainedByTypo = new Set<string>();
  for (const issue of issues) {
    if (issue.code !== "unrecognized_keys") continue;
    const parent = toPath(issue.path);
    const group = unwrap(schemaAt(context.schema, parent));
    const known = group instanceof z.ZodObject ? Object.keys(group.shape) : [];
    const present = valueAt(context.data, parent);
    for (const key of issue.keys) {
      const guess = closestMatch(key, known);
      let message = `is not a field the page knows here.`;
      if (guess) {
        const missing = isRecord(present) && present[guess] === undefined;
        if (missing) explainedByTypo.add(JSON.stringify([...parent, guess]));
        message += ` Did you mean "${guess}"?${missing ? ` (${guess} is required and missing.)` : ""}`;
      }
      message += ` Fields allowed here: ${known.join(", ")}.`;
      findings.push({ severity: "error", path: [...parent, key], message });
    }
  }
  for (const issue of issues) {
    const path = toPath(issue.path);
    if (issue.code === "unrecognized_keys" || explainedByTypo.has(JSON.stringify(path))) continue;
    findings.push({ severity: "error", path, message: describeIssue(issue, path, context) });
  }
  return findings;
}

function describeIssue(issue: z.core.$ZodIssue, path: ContentPath, context: IssueContext): string {
  const schema = schemaAt(context.schema, path);
  const expected = expectedPhrase(schema);
  const examples = schema?.meta()?.examples;
  const example: unknown = Array.isArray(examples) ? examples[0] : undefined;
  const eg =
    typeof example === "string" && !expected.includes(example) ? `, e.g. ${show(example)}` : "";
  const expectation = `Expected ${expected}${eg}.`;
  if (issue.code === "invalid_type") {
    const value = valueAt(context.data, path);
    return describeWrongType(issue.expected, value, context.rawOf(path), expectation);
  }
  if (issue.code === "too_small" && issue.origin === "string") return `is empty. ${expectation}`;
  if (issue.code === "too_small" && issue.origin === "array") {
    const count = issue.minimum === 1 ? "one" : String(issue.minimum);
    const item = schema instanceof z.ZodArray ? schema.element : undefined;
    return item instanceof z.ZodObject
      ? `has no items. Add at least ${count}, each starting with "- " and having ${joinAnd(Object.keys(item.shape))}.`
      : `has no items. Add at least ${count}, each on its own line starting with "- ".`;
  }
  if (issue.code === "custom" && issue.params?.reason === BLANK)
    return `is empty (only spaces). ${expectation}`;
  return issue.message;
}

function describeWrongType(
  expectedType: string,
  value: unknown,
  raw: string | undefined,
  expectation: string,
): string {
  if (value === undefined) return `is missing. ${expectation}`;
  if (value === null) return `has no value. ${expectation}`;
  const typed = raw ?? show(value);
  const wantsNumber = expectedType === "number" || expectedType === "int";
  if (expectedType === "string" && typeof value === "boolean")
    return `${typed} is read as yes/no. Put it in quotes, "${typed}", if it is meant as text. ${expectation}`;
  if (wantsNumber && typeof value === "number")
    return `${typed} is not a whole number. ${expectation}`;
  if (wantsNumber && typeof value === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(value))
    return `${show(value)} is in quotes, so it is read as text. Remove the quotes. ${expectation}`;
  if (expectedType === "array" && typeof value === "string") {
    const dashHint = /^-\S/.test(value.trim()) ? ` Put a space after each "-".` : "";
    return `is a single piece of text, not a list.${dashHint} ${expectation}`;
  }
  if (typeof value === "string") return `is the text ${show(value)}. ${expectation}`;
  if (typeof value === "number") return `is a number (${typed}). ${expectation}`;
  if (typeof value === "boolean") return `is yes/no (${typed}). ${expectation}`;
  return `is ${Array.isArray(value) ? "a list" : "a group of fields"}. ${expectation}`;
}

export function formatProblem(problem: ContentProblem): string {
  let place = problem.file;
  if (problem.line !== undefined) place += `:${problem.line}`;
  if (problem.line !== undefined && problem.column !== undefined) place += `:${problem.column}`;
  const where = problem.location.length > 0 ? ` › ${problem.location.join(" › ")}:` : " ›";
  return `${place}${where} ${problem.message}`;
}

/** "1 error", "2 errors". */
export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

/** The report of `npm run check:content`: errors first, then warnings, then a summary. */
export function formatReport({ errors, warnings, filesChecked }: ContentCheckResult): string[] {
  const files = `${count(filesChecked, "file")} checked`;
  const list = (problems: readonly ContentProblem[], noun: string, note: string) => {
    const lines = problems.map((problem) => `  ${formatProblem(problem)}`);
    return lines.length > 0 ? [`${count(lines.length, noun)} (${note}):`, ...lines] : [];
  };
  const summary =
    errors.length > 0
      ? `Content has errors: ${files}, ${count(errors.length, "error")}, ${count(warnings.length, "warning")}.`
      : warnings.length > 0
        ? `Content OK with ${count(warnings.length, "warning")}: ${files}.`
        : `Content OK: ${files}.`;
  return [
    ...list(errors, "content error", "the site will not build until these are fixed"),
    ...list(warnings, "content warning", "the site still builds, but please take a look"),
    summary,
  ];
}
