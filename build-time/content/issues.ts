/**
 * Turns zod's findings into sentences: what is wrong with a field, and what it should be.
 */
import { z } from "zod";
import { BLANK, show } from "./fields";
import type { ContentPath, Finding } from "./problems";
import {
  exampleOf,
  expectedPhrase,
  fieldNamesAt,
  isRecord,
  joinAnd,
  schemaAt,
  valueAt,
} from "./schema-walk";
import { closestMatch } from "./suggest";

type Issue = z.core.$ZodIssue;

/** What the translator may look up about the file besides the issues. */
export interface IssueContext {
  schema: z.ZodType;
  data: unknown;
  /** The value as typed in the file, when YAML read it as something else (e.g. 04101 → 4101). */
  rawOf(path: ContentPath): string | undefined;
}

export function findingsFromIssues(issues: readonly Issue[], context: IssueContext): Finding[] {
  const findings: Finding[] = [];
  const explainedByTypo = new Set<string>();

  for (const issue of issues) {
    if (issue.code !== "unrecognized_keys") continue;
    const parent = toPath(issue.path);
    const known = fieldNamesAt(context.schema, parent);
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
    if (issue.code === "unrecognized_keys") continue;
    const path = toPath(issue.path);
    if (explainedByTypo.has(JSON.stringify(path))) continue;
    findings.push({ severity: "error", path, message: describeIssue(issue, path, context) });
  }
  return findings;
}

function toPath(path: readonly PropertyKey[]): ContentPath {
  return path.map((segment) => (typeof segment === "number" ? segment : String(segment)));
}

function describeIssue(issue: Issue, path: ContentPath, context: IssueContext): string {
  const schema = schemaAt(context.schema, path);
  const expected = expectedPhrase(schema);
  const example = exampleOf(schema);
  const expectation = `Expected ${expected}${example && !expected.includes(example) ? `, e.g. ${show(example)}` : ""}.`;

  switch (issue.code) {
    case "invalid_type":
      return describeWrongType(
        issue.expected,
        valueAt(context.data, path),
        context.rawOf(path),
        expectation,
      );
    case "too_small":
      if (issue.origin === "string") return `is empty. ${expectation}`;
      if (issue.origin === "array")
        return `has no items. ${addItemsHint(schema, Number(issue.minimum))}`;
      return issue.message;
    case "custom":
      return issue.params?.reason === BLANK
        ? `is empty (only spaces). ${expectation}`
        : issue.message;
    default:
      return issue.message;
  }
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
  const wantsText = expectedType === "string";
  if (wantsText && typeof value === "boolean") {
    return `${typed} is read as yes/no. Put it in quotes, "${typed}", if it is meant as text. ${expectation}`;
  }
  if ((expectedType === "number" || expectedType === "int") && typeof value === "number") {
    return `${typed} is not a whole number. ${expectation}`;
  }
  if (
    (expectedType === "number" || expectedType === "int") &&
    typeof value === "string" &&
    /^\s*-?\d+(\.\d+)?\s*$/.test(value)
  ) {
    return `${show(value)} is in quotes, so it is read as text. Remove the quotes. ${expectation}`;
  }
  if (expectedType === "array" && typeof value === "string") {
    const dashHint = /^-\S/.test(value.trim()) ? ` Put a space after each "-".` : "";
    return `is a single piece of text, not a list.${dashHint} ${expectation}`;
  }
  return `is ${describeValue(value, raw)}. ${expectation}`;
}

function addItemsHint(schema: z.ZodType | undefined, minimum: number): string {
  const count = minimum === 1 ? "one" : String(minimum);
  const item = schema instanceof z.ZodArray ? (schema.element as z.ZodType) : undefined;
  if (item instanceof z.ZodObject) {
    return `Add at least ${count}, each starting with "- " and having ${joinAnd(Object.keys(item.shape))}.`;
  }
  return `Add at least ${count}, each on its own line starting with "- ".`;
}

function describeValue(value: unknown, raw: string | undefined): string {
  if (typeof value === "string") return `the text ${show(value)}`;
  if (typeof value === "number") return `a number (${raw ?? value})`;
  if (typeof value === "boolean") return `yes/no (${raw ?? value})`;
  if (value instanceof Date) return `a date (${raw ?? show(value)})`;
  if (Array.isArray(value)) return "a list";
  return "a group of fields";
}
