/**
 * Checks a schema cannot express: duplicates, pictures on disk, date order, text that fits badly.
 * They run even when the schema found problems, so they read the data defensively.
 */
import fs from "node:fs";
import path from "node:path";
import { imageSize } from "image-size";
import { PLACEHOLDERS, unknownPlaceholders } from "../../src/lib/pictures/picture-facts";
import { IMAGE_PATH_PATTERN } from "./fields";
import { closestMatch, show, type Finding } from "./messages";
import { isRecord, type ContentPath } from "./schema-walk";

export type FileCheckContext = {
  /** Folder of the YAML file (picture paths start there). */
  yamlDir: string;
  /** The content folder: pictures must be inside it. */
  contentDir: string;
};

type Fields = Record<string, unknown>;

/** Items of the list at `key` that are groups of fields, with their positions. */
function itemsOf(data: Fields, key: string): Array<[number, Fields]> {
  const list = data[key];
  if (!Array.isArray(list)) return [];
  return list.flatMap((item, index): Array<[number, Fields]> =>
    isRecord(item) ? [[index, item]] : [],
  );
}

function textOf(record: Fields, key: string | number | undefined): string | undefined {
  const value = typeof key === "string" ? record[key] : undefined;
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}

/** A warning for each text at `field` ("ctaLabel", or "stats[].value" in every item) over `max`. */
export function tooLong(data: Fields, field: string, max: number, why: string): Finding[] {
  const [list, key] = field.split("[].");
  const places: Array<[Fields, ContentPath]> = key
    ? itemsOf(data, list!).map(([index, item]) => [item, [list!, index, key]])
    : [[data, [field]]];
  return places.flatMap(([record, path]): Finding[] => {
    const length = [...(textOf(record, path[path.length - 1])?.trim() ?? "")].length;
    const message = `is ${length} characters long; ${why} Aim for ${max} or fewer.`;
    return length > max ? [{ severity: "warning", path, message }] : [];
  });
}

/** Each value of `field` in the list `listKey` must be different. */
export function duplicates(data: Fields, listKey: string, field: string, why: string): Finding[] {
  const firstSeen = new Map<string, number>();
  return itemsOf(data, listKey).flatMap(([index, item]): Finding[] => {
    const value = textOf(item, field);
    if (value === undefined) return [];
    const earlier = firstSeen.get(value.trim().toLowerCase());
    if (earlier === undefined) {
      firstSeen.set(value.trim().toLowerCase(), index);
      return [];
    }
    const message = `${show(value)} is already used by ${listKey} item ${earlier + 1}. ${why}`;
    return [{ severity: "error", path: [listKey, index, field], message }];
  });
}

export function dateOrder(data: Fields, startKey: string, endKey: string): Finding[] {
  const start = textOf(data, startKey) ?? "";
  const end = textOf(data, endKey) ?? "";
  const dates = /^\d{4}-\d{2}-\d{2}$/;
  if (!dates.test(start) || !dates.test(end) || end >= start) return [];
  const message = `${show(end)} is before ${startKey} ${show(start)}. Expected the last day on or after the first day.`;
  return [{ severity: "error", path: [endKey], message }];
}

/** The picture must exist; when `recommended` is given, other sizes get a warning. */
export function pictureExists(
  data: Fields,
  field: string,
  context: FileCheckContext,
  recommended?: { width: number; height: number; purpose: string },
): Finding[] {
  const value = data[field];
  // Malformed paths (web addresses, wrong formats) are already reported by the schema.
  if (typeof value !== "string" || !IMAGE_PATH_PATTERN.test(value)) return [];
  const found = findPicture(value, context);
  if (typeof found !== "string")
    return [{ severity: "error", path: [field], message: found.problem }];
  if (!recommended) return [];
  let size: { width: number; height: number };
  try {
    size = imageSize(fs.readFileSync(found));
  } catch {
    return []; // a format image-size cannot read: only its existence is checked
  }
  if (size.width === recommended.width && size.height === recommended.height) return [];
  const message = `the picture is ${size.width} × ${size.height} pixels; ${recommended.purpose} look best at ${recommended.width} × ${recommended.height}, other sizes get cropped or blurred.`;
  return [{ severity: "warning", path: [field], message }];
}

function namesIn(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

/**
 * The picture's absolute path from the YAML file's folder: inside the content folder, capitals
 * exact (the build machines tell them apart even when a laptop does not).
 */
function findPicture(relativePath: string, { yamlDir, contentDir }: FileCheckContext) {
  const fromRoot = path.relative(contentDir, path.resolve(yamlDir, relativePath));
  if (fromRoot.startsWith("..") || path.isAbsolute(fromRoot))
    return {
      problem: `${show(relativePath)} points outside the content folder. Keep pictures in content/images.`,
    };
  let dir = contentDir;
  const parts = fromRoot.split(path.sep);
  for (const [index, part] of parts.entries()) {
    const names = namesIn(dir);
    if (names.includes(part)) {
      dir = path.join(dir, part);
      continue;
    }
    const sameLetters = names.find((name) => name.toLowerCase() === part.toLowerCase());
    if (sameLetters)
      return {
        problem: `${show(relativePath)} does not match the capitals of the file name "${sameLetters}". Write it exactly as the file is named.`,
      };
    if (index < parts.length - 1)
      return { problem: `${show(relativePath)} does not exist: there is no folder "${part}".` };
    const pictures = names.filter((name) => IMAGE_PATH_PATTERN.test(name)).sort();
    const guess = closestMatch(part, pictures);
    const folder = relativePath.slice(0, relativePath.length - part.length);
    const suggestion = guess ? ` Did you mean "${folder}${guess}"?` : "";
    const available =
      pictures.length > 0
        ? ` Pictures in that folder: ${pictures.join(", ")}.`
        : " That folder has no pictures.";
    return { problem: `${show(relativePath)} does not exist.${suggestion}${available}` };
  }
  if (!fs.statSync(dir).isFile())
    return { problem: `${show(relativePath)} is a folder, not a picture.` };
  return dir;
}

/** A picture description: {placeholders} it cannot fill are errors, useless words a warning. */
export function pictureDescription(data: Fields, field: string): Finding[] {
  const value = textOf(data, field)?.trim();
  if (value === undefined) return [];
  const findings: Finding[] = [];
  let problem: string | undefined;
  if (
    /^(?:alt|image|img|picture|photo|graphic|illustration|logo|todo|tbd|xxx|placeholder)\.?$/i.test(
      value,
    )
  )
    problem = `${show(value)} is a placeholder.`;
  else if (/\.(?:png|jpe?g|webp|avif|gif|svg)$/i.test(value))
    problem = `${show(value)} is a file name.`;
  else if (/^(?:an? )?(?:image|picture|photo) of\b/i.test(value))
    problem = `${show(value)} starts with "${value.split(" of")[0]} of"; screen readers already announce a picture.`;
  if (problem)
    findings.push({
      severity: "warning",
      path: [field],
      message: `${problem} Describe what the picture shows, in a sentence.`,
    });
  for (const name of unknownPlaceholders(value)) {
    const guess = closestMatch(name, PLACEHOLDERS);
    const hint = guess ? ` Did you mean {${guess}}?` : "";
    const known = PLACEHOLDERS.map((placeholder) => `{${placeholder}}`).join(", ");
    const message = `{${name}} is not a fact the site can fill in.${hint} Use one of: ${known}.`;
    findings.push({ severity: "error", path: [field], message });
  }
  return findings;
}
