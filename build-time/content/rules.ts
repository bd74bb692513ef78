/**
 * Checks a schema cannot express: duplicates, pictures on disk, date order, and warnings about
 * text that fits badly. They read the data defensively, because they run even when the schema
 * found problems (so that every problem is reported in one go).
 */
import { PLACEHOLDERS, unknownPlaceholders } from "../../src/lib/pictures/picture-facts";
import { IMAGE_EXTENSIONS, show } from "./fields";
import { findImage, readImageSize, type ImageSize } from "./images";
import type { ContentPath, Finding } from "./problems";
import { isRecord } from "./schema-walk";
import { closestMatch } from "./suggest";

export interface FileCheckContext {
  /** Folder of the YAML file (picture paths start there). */
  yamlDir: string;
  /** The content folder: pictures must be inside it. */
  contentDir: string;
}

/** Lengths above which text still works but is likely to look bad. */
export const WARNING_LIMITS = {
  offeringSubtitle: 60,
  heroHeadline: 80,
  siteDescription: 160,
  figureValue: 12,
  buttonLabel: 40,
} as const;

export const SHARE_IMAGE_SIZE: ImageSize = { width: 1200, height: 630 };

/** Items of the list at `key` that are groups of fields, with their positions. */
export function itemsOf(
  data: Record<string, unknown>,
  key: string,
): Array<[number, Record<string, unknown>]> {
  const list = data[key];
  if (!Array.isArray(list)) return [];
  return list.flatMap((item, index): Array<[number, Record<string, unknown>]> =>
    isRecord(item) ? [[index, item]] : [],
  );
}

function textOf(record: Record<string, unknown>, key: string): string | undefined {
  const value = record[key];
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}

export function tooLong(
  record: Record<string, unknown>,
  path: ContentPath,
  max: number,
  consequence: string,
): Finding[] {
  const key = path[path.length - 1];
  const value = typeof key === "string" ? textOf(record, key) : undefined;
  if (value === undefined) return [];
  const length = [...value.trim()].length;
  if (length <= max) return [];
  return [
    {
      severity: "warning",
      path,
      message: `is ${length} characters long; ${consequence} Aim for ${max} or fewer.`,
    },
  ];
}

/** Each value of `field` in the list `listKey` must be different. */
export function duplicates(
  data: Record<string, unknown>,
  listKey: string,
  field: string,
  why: string,
): Finding[] {
  const firstSeen = new Map<string, number>();
  const findings: Finding[] = [];
  for (const [index, item] of itemsOf(data, listKey)) {
    const value = textOf(item, field);
    if (value === undefined) continue;
    const key = value.trim().toLowerCase();
    const earlier = firstSeen.get(key);
    if (earlier === undefined) {
      firstSeen.set(key, index);
      continue;
    }
    findings.push({
      severity: "error",
      path: [listKey, index, field],
      message: `${show(value)} is already used by ${listKey} item ${earlier + 1}. ${why}`,
    });
  }
  return findings;
}

const PICTURE_PATH = new RegExp(`\\.(?:${IMAGE_EXTENSIONS.join("|")})$`, "i");

/** The picture must exist; when `recommended` is given, other sizes get a warning. */
export function pictureExists(
  data: Record<string, unknown>,
  field: string,
  context: FileCheckContext,
  recommended?: { size: ImageSize; purpose: string },
): Finding[] {
  const value = data[field];
  // Malformed paths (web addresses, wrong formats) are already reported by the schema.
  if (
    typeof value !== "string" ||
    !PICTURE_PATH.test(value) ||
    /^[a-z][a-z0-9+.-]+:|^\/|\\/i.test(value)
  )
    return [];
  const lookup = findImage(value, context.yamlDir, context.contentDir);
  if (!lookup.found) return [{ severity: "error", path: [field], message: lookup.message }];
  if (!recommended) return [];
  const size = readImageSize(lookup.absolutePath);
  const want = recommended.size;
  if (!size || (size.width === want.width && size.height === want.height)) return [];
  return [
    {
      severity: "warning",
      path: [field],
      message: `the picture is ${size.width} × ${size.height} pixels; ${recommended.purpose} look best at ${want.width} × ${want.height}, other sizes get cropped or blurred.`,
    },
  ];
}

const PLACEHOLDER_ALT =
  /^(?:alt|image|img|picture|photo|graphic|illustration|logo|todo|tbd|xxx|placeholder)\.?$/i;

/** A {name} in a picture description that is not one of the facts it can name. */
export function placeholderErrors(data: Record<string, unknown>, field: string): Finding[] {
  const value = textOf(data, field);
  if (value === undefined) return [];
  return unknownPlaceholders(value).map((name) => {
    const guess = closestMatch(name, PLACEHOLDERS);
    const hint = guess ? ` Did you mean {${guess}}?` : "";
    return {
      severity: "error" as const,
      path: [field],
      message: `{${name}} is not a fact the site can fill in.${hint} Use one of: ${PLACEHOLDERS.map((known) => `{${known}}`).join(", ")}.`,
    };
  });
}

/** Alt text that exists but says nothing useful. */
export function altTextWarnings(data: Record<string, unknown>, field: string): Finding[] {
  const value = textOf(data, field)?.trim();
  if (value === undefined) return [];
  let problem: string | undefined;
  if (PLACEHOLDER_ALT.test(value)) problem = `${show(value)} is a placeholder.`;
  else if (/\.(?:png|jpe?g|webp|avif|gif|svg)$/i.test(value))
    problem = `${show(value)} is a file name.`;
  else if (/^(?:an? )?(?:image|picture|photo) of\b/i.test(value))
    problem = `${show(value)} starts with "${value.split(" of")[0]} of"; screen readers already announce a picture.`;
  if (!problem) return [];
  return [
    {
      severity: "warning",
      path: [field],
      message: `${problem} Describe what the picture shows, in a sentence.`,
    },
  ];
}

export function dateOrder(
  data: Record<string, unknown>,
  startKey: string,
  endKey: string,
): Finding[] {
  const start = textOf(data, startKey);
  const end = textOf(data, endKey);
  if (
    !start ||
    !end ||
    !/^\d{4}-\d{2}-\d{2}$/.test(start) ||
    !/^\d{4}-\d{2}-\d{2}$/.test(end) ||
    end >= start
  )
    return [];
  return [
    {
      severity: "error",
      path: [endKey],
      message: `${show(end)} is before ${startKey} ${show(start)}. Expected the last day on or after the first day.`,
    },
  ];
}
