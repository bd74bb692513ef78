/** Finds the value and the schema at a place in a content file (a ContentPath). */
import { z } from "zod";
/** A place in a YAML file: field names and 0-based list positions, e.g. ["offerings", 2, "headerStyle"]. */
export type ContentPath = readonly (string | number)[];

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function unwrap(schema: z.ZodType | undefined): z.ZodType | undefined {
  let current = schema;
  while (current instanceof z.ZodOptional || current instanceof z.ZodNullable)
    current = current.unwrap() as z.ZodType;
  return current;
}

/** The schema of the value at `path`, as declared (an optional field stays optional). */
export function schemaAt(root: z.ZodType, path: ContentPath): z.ZodType | undefined {
  let current: z.ZodType | undefined = root;
  for (const segment of path) {
    const schema = unwrap(current);
    if (typeof segment === "string" && schema instanceof z.ZodObject)
      current = (schema.shape as Record<string, z.ZodType | undefined>)[segment];
    else if (typeof segment === "number" && schema instanceof z.ZodArray)
      current = schema.element as z.ZodType;
    else return undefined;
  }
  return current;
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
