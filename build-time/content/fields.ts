/**
 * Building blocks for the content schemas. Each one carries a description (shown by editors
 * through the exported JSON Schemas) and a plain-language "expected" phrase used in messages.
 */
import { z } from "zod";
import { OFFERING_HEADER_STYLES } from "../../src/lib/offering-header-styles";
import { BLANK, closestMatch, fieldHelp, show } from "./messages";

/** The last sentence of a description that only helps someone typing YAML; the CMS leaves it out. */
export const typingHints = z.registry<{ sentence: string }>();

/** The GraphQL object type of each group (graphql-types.ts); page fragments are written `on` it. */
export const graphqlTypeNames = z.registry<{ name: string }>();

/** Picture paths (File nodes in GraphQL); `drawnWhenEmpty`: the site draws one when left empty. */
export const pictureFields = z.registry<{ drawnWhenEmpty: boolean }>();

/** Picture formats the image pipeline (gatsby-transformer-sharp) can resize. */
export const IMAGE_EXTENSIONS = ["png", "jpg", "jpeg", "webp", "avif", "tif", "tiff"] as const;

function isBlank(value: unknown): boolean {
  return typeof value === "string" && value.trim() === "";
}

export function help<T extends z.ZodType>(
  schema: T,
  description: string,
  expected: string,
  example?: string,
  typingHint?: string,
): T {
  const fullDescription = typingHint ? `${description} ${typingHint}` : description;
  const examples = example === undefined ? {} : { examples: [example] };
  const described = schema.meta({ description: fullDescription, ...examples });
  fieldHelp.add(described, { expected });
  if (typingHint) typingHints.add(described, { sentence: typingHint });
  return described;
}

/** Required text: not missing, not empty, not only spaces. `typingHint`: see typingHints. */
export function text(description: string, example?: string, typingHint?: string) {
  const schema = z
    .string()
    .min(1, { abort: true })
    .refine((value) => value.trim() !== "", { params: { reason: BLANK } });
  return help(schema, description, "text", example, typingHint);
}

/** Required text with a format check; `problem` explains a wrong value, `expected` what fits. */
export function formattedText(options: {
  description: string;
  expected: string;
  example: string;
  pattern: RegExp;
  accept?: (value: string) => boolean;
  problem: (value: string) => string;
  typingHint?: string;
}) {
  const explain = (issue: { code: string; input?: unknown }): string | undefined => {
    if (issue.code === "invalid_type") return undefined;
    if (isBlank(issue.input)) return `is empty. Expected ${options.expected}.`;
    return `${options.problem(String(issue.input))} Expected ${options.expected}.`;
  };
  let schema = z.string().regex(options.pattern, { error: explain, abort: true });
  if (options.accept) schema = schema.refine(options.accept, { error: explain });
  return help(schema, options.description, options.expected, options.example, options.typingHint);
}

export function email(description: string) {
  return formattedText({
    description,
    expected: "an e-mail address such as meetings@example.com",
    example: "meetings@example.com",
    pattern:
      /^[^\s@"<>(),;:]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.[A-Za-z]{2,}$/,
    problem: (value) => `${show(value)} is not an e-mail address.`,
  });
}

export function phone(description: string) {
  return formattedText({
    description,
    expected: "a phone number of 7 to 15 digits, written like (614) 555-0172 or +1 614 555 0172",
    example: "(614) 555-0172",
    pattern: /^\+?[0-9 ().-]+$/,
    accept: (value) => /^\d{7,15}$/.test(value.replace(/\D/g, "")),
    problem: (value) => `${show(value)} does not look like a phone number.`,
  });
}

const HREF_PATTERN =
  /^(?:#(?:[A-Za-z][\w-]*)?|\/(?!\/)\S*|https?:\/\/[^\s/?#]+\.[^\s/?#]+(?:[/?#]\S*)?|mailto:[^\s@]+@[^\s@]+\.[^\s@]+|tel:\+?[0-9-]+)$/;

export function href(description: string) {
  return formattedText({
    description,
    expected:
      '"#" (a placeholder), an in-page anchor like "#contact-form", a site path like "/privacy/", or a full address starting with https://, http:// or mailto:',
    example: "#contact-form",
    pattern: HREF_PATTERN,
    accept: (value) => !/^https?:/.test(value) || URL.canParse(value),
    problem: (value) =>
      /^www\./i.test(value)
        ? `${show(value)} is missing its start: write https://${value}.`
        : `${show(value)} is not a link the page can use.`,
  });
}

export function countryCode(description: string) {
  return formattedText({
    description,
    expected: "a two-letter country code in capitals, such as US or CA",
    example: "US",
    pattern: /^[A-Z]{2}$/,
    problem: (value) => `${show(value)} is not a two-letter country code.`,
  });
}

export function isoDate(description: string, typingHint?: string) {
  return formattedText({
    description,
    typingHint,
    expected: "a date written YYYY-MM-DD, such as 2025-05-18",
    example: "2025-05-18",
    pattern: /^\d{4}-\d{2}-\d{2}$/,
    accept: (value) => {
      // A real day: 2025-02-30 would become March 2.
      const day = new Date(`${value}T00:00:00Z`);
      return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(value);
    },
    problem: (value) => `${show(value)} is not a real date in the form YYYY-MM-DD.`,
  });
}

/** Either capitalisation without a regex flag, so the pattern survives export to JSON Schema. */
const anyCase = (word: string) => [...word].map((c) => `[${c}${c.toUpperCase()}]`).join("");
export const IMAGE_PATH_PATTERN = new RegExp(
  `^(?![A-Za-z][A-Za-z0-9+.-]*:)(?!/)[^\\\\]+\\.(?:${IMAGE_EXTENSIONS.map(anyCase).join("|")})$`,
);

export function imagePath(description: string, typingHint?: string) {
  const schema = formattedText({
    description,
    typingHint,
    expected: "the path of a picture next to this file, such as ./images/share-card.png",
    example: "./images/share-card.png",
    pattern: IMAGE_PATH_PATTERN,
    problem: (value) => {
      if (/^[a-z][a-z0-9+.-]+:/i.test(value))
        return `${show(value)} is a web address; pictures must be files saved in content/images.`;
      if (value.startsWith("/"))
        return `${show(value)} starts with "/"; write the path from this file instead, e.g. ./images/picture.png.`;
      if (value.includes("\\")) return `${show(value)} uses "\\"; write the path with "/" instead.`;
      const extension = /\.([A-Za-z0-9]+)$/.exec(value)?.[1];
      if (extension) {
        const formats = IMAGE_EXTENSIONS.slice(0, 5).map((e) => `.${e}`);
        const list = `${formats.slice(0, -1).join(", ")} or ${formats[formats.length - 1]}`;
        return `${show(value)} is a .${extension.toLowerCase()} file; the page can only resize ${list} pictures for each screen.`;
      }
      return `${show(value)} is not a picture file name.`;
    },
  });
  pictureFields.add(schema, { drawnWhenEmpty: false });
  return schema;
}

/** An editor's own picture instead of the drawn one (build-time/pictures): optional. */
export function ownPicture(description: string) {
  const schema = imagePath(
    description,
    "Save it in content/images and write its path from this file, e.g. ./images/our-picture.png.",
  ).optional();
  pictureFields.add(schema, { drawnWhenEmpty: true });
  return schema;
}

/** Text alternative of a picture: required, because screen-reader users and search engines rely on it. */
export function imageAlt(pictureField: string, drawnFrom?: string) {
  const placeholders = drawnFrom
    ? ` It may name the facts the drawn picture shows in braces, so it changes with them: ${drawnFrom}.`
    : "";
  return text(
    `Describes the picture in ${pictureField} for people who cannot see it (screen readers, slow connections, search engines). Say what it shows; do not start with "Image of".${placeholders}`,
  );
}

export function year(description: string, example: string) {
  const explain = (issue: { code: string; input?: unknown }): string | undefined =>
    issue.code === "too_small" || issue.code === "too_big" || issue.code === "not_multiple_of"
      ? `${show(issue.input)} is not a believable year. Expected a four-digit year such as ${example}.`
      : undefined;
  const schema = z
    .number()
    .int({ error: explain })
    .min(1800, { error: explain })
    .max(2100, { error: explain });
  return help(schema, description, `a four-digit year such as ${example}, without quotes`, example);
}

/** The colour style of an offering card's header; only the styles the card's CSS defines are allowed. */
export function headerStyle(description: string) {
  const allowed = OFFERING_HEADER_STYLES.join(", ");
  const schema = z.enum(OFFERING_HEADER_STYLES, {
    error: (issue) => {
      if (issue.code !== "invalid_value") return undefined;
      if (isBlank(issue.input) || issue.input === null) return `is empty. Use one of: ${allowed}.`;
      const guess =
        typeof issue.input === "string"
          ? closestMatch(issue.input, OFFERING_HEADER_STYLES)
          : undefined;
      const hint = guess ? ` Did you mean "${guess}"?` : "";
      return `${show(issue.input)} is not a colour style the page defines.${hint} Use one of: ${allowed}.`;
    },
  });
  return help(schema, description, `one of: ${allowed}`, OFFERING_HEADER_STYLES[0]);
}

/** A list with at least `min` items. */
export function list<T extends z.ZodType>(item: T, description: string, typingHint?: string) {
  const schema = z
    .array(item)
    .min(1)
    .describe(typingHint ? `${description} ${typingHint}` : description);
  if (typingHint) typingHints.add(schema, { sentence: typingHint });
  return schema;
}

/** A group of named fields (others are reported as typos) and the GraphQL type it becomes. */
export function group<T extends z.ZodRawShape>(graphqlType: string, shape: T, description: string) {
  const schema = z.strictObject(shape).describe(description);
  graphqlTypeNames.add(schema, { name: graphqlType });
  return schema;
}

/** A whole content file: one group of fields at the top level. */
export function contentFile<T extends z.ZodRawShape>(shape: T, title: string, description: string) {
  return z.strictObject(shape).meta({ title, description });
}
