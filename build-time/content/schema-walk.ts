/**
 * Finds the schema and the value at a path, and says in words what a schema expects.
 */
import { z } from "zod";
import { fieldHelp } from "./fields";
import type { ContentPath } from "./problems";

function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  while (current instanceof z.ZodOptional || current instanceof z.ZodNullable)
    current = current.unwrap() as z.ZodType;
  return current;
}

export function schemaAt(root: z.ZodType, path: ContentPath): z.ZodType | undefined {
  let current: z.ZodType | undefined = root;
  for (const segment of path) {
    if (!current) return undefined;
    const schema = unwrap(current);
    if (typeof segment === "string" && schema instanceof z.ZodObject) {
      const shape: Record<string, z.ZodType | undefined> = schema.shape;
      current = shape[segment];
    } else if (typeof segment === "number" && schema instanceof z.ZodArray) {
      current = schema.element as z.ZodType;
    } else {
      return undefined;
    }
  }
  return current;
}

/** Field names of the group at `path`, in the order the schema lists them. */
export function fieldNamesAt(root: z.ZodType, path: ContentPath): string[] {
  const schema = schemaAt(root, path);
  return schema && unwrap(schema) instanceof z.ZodObject ? fieldNames(unwrap(schema)) : [];
}

function fieldNames(schema: z.ZodType): string[] {
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
}

export function valueAt(data: unknown, path: ContentPath): unknown {
  let current = data;
  for (const segment of path) {
    if (typeof segment === "number" && Array.isArray(current)) current = current[segment];
    else if (typeof segment === "string" && isRecord(current)) current = current[segment];
    else return undefined;
  }
  return current;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date)
  );
}

/** "text", "a list of items, each with value and label", "an e-mail address such as …". */
export function expectedPhrase(schema: z.ZodType | undefined): string {
  if (!schema) return "a value";
  const helpText = fieldHelp.get(schema)?.expected;
  if (helpText) return helpText;
  const inner = unwrap(schema);
  if (inner instanceof z.ZodObject)
    return `a group of fields on indented lines below it: ${fieldNames(inner).join(", ")}`;
  if (inner instanceof z.ZodArray) {
    const item = unwrap(inner.element as z.ZodType);
    if (item instanceof z.ZodObject)
      return `a list of items, each starting with "- " and having ${joinAnd(fieldNames(item))}`;
    return `a list, with each ${expectedPhrase(item)} on its own line starting with "- "`;
  }
  if (inner instanceof z.ZodString) return "text";
  if (inner instanceof z.ZodNumber) return "a number";
  return "a value";
}

export function exampleOf(schema: z.ZodType | undefined): string | undefined {
  const examples = schema?.meta()?.examples;
  const first: unknown = Array.isArray(examples) ? examples[0] : undefined;
  return typeof first === "string" ? first : undefined;
}

export function joinAnd(words: readonly string[]): string {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}
