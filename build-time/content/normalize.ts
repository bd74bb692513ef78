/**
 * What a content file means, whichever way its text fields were written. A CMS (and many
 * editors) writes `startDate: 2025-05-18`, `booth: 713` or `value: 320` without quotes; YAML then
 * reads a date or a number where the page expects text. Here a text field keeps the value as it
 * was typed: an unquoted date becomes "YYYY-MM-DD", a number its exact digits ("04101" keeps its
 * zero). The check validates this data, and the same data is what Gatsby turns into the page.
 */
import { z } from "zod";
import type { ContentPath } from "./problems";
import { isRecord, schemaAt } from "./schema-walk";

const DATE_AS_TYPED = /^(\d{4})-(\d{1,2})-(\d{1,2})$/;

function asText(value: Date | number, raw: string | undefined): string {
  if (value instanceof Date) {
    const parts = raw === undefined ? undefined : DATE_AS_TYPED.exec(raw);
    if (raw !== undefined && !parts) return raw;
    return value.toISOString().slice(0, 10);
  }
  return raw ?? String(value);
}

function isTextField(root: z.ZodType, path: ContentPath): boolean {
  let schema = schemaAt(root, path);
  while (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable)
    schema = schema.unwrap() as z.ZodType;
  return schema instanceof z.ZodString;
}

export function normalizeTextFields(
  root: z.ZodType,
  data: unknown,
  rawOf: (path: ContentPath) => string | undefined,
  path: ContentPath = [],
): unknown {
  if (Array.isArray(data))
    return data.map((item, index) => normalizeTextFields(root, item, rawOf, [...path, index]));
  if (isRecord(data)) {
    return Object.fromEntries(
      Object.entries(data).map(([key, value]) => [
        key,
        normalizeTextFields(root, value, rawOf, [...path, key]),
      ]),
    );
  }
  if ((data instanceof Date || typeof data === "number") && isTextField(root, path))
    return asText(data, rawOf(path));
  return data;
}
