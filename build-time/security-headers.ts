/**
 * Writes public/_headers from the static/_headers template once the pages are built:
 * the Content-Security-Policy gets the hashes of exactly the inline scripts and styles that
 * the built HTML holds, and the origin of the Supabase project the form posts to.
 *
 * Called from gatsby-node.ts (onPostBuild) and by `npm run headers` on an existing build.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { headersForPath, parseHeadersFile, type HeaderRule } from "./headers-file";
import { normalizeCsp, strictPolicyProblems } from "./csp";
import { cspHash, findInlineSources } from "./inline-sources";
import { listFiles } from "./list-files";

export const PLACEHOLDERS = [
  "inline-script-hashes",
  "inline-style-hashes",
  "style-attribute-hashes",
  "supabase-origin",
] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];
export type PlaceholderValues = Record<Placeholder, string>;

/** A `{{placeholder}}` of the static/_headers template (spaces inside the braces allowed). */
const PLACEHOLDER_PATTERN = /\{\{\s*([^}]*?)\s*\}\}/g;

/** The first `{{placeholder}}` left in `text`: `gatsby develop` copies the template to public/ unfilled. */
export function findUnfilledPlaceholder(text: string): string | undefined {
  return new RegExp(PLACEHOLDER_PATTERN.source).exec(text)?.[0];
}

/** Cloudflare Pages ignores a _headers line longer than this. */
export const MAX_HEADERS_LINE_LENGTH = 2000;

export class SecurityHeadersError extends Error {
  override name = "SecurityHeadersError";
}

export type SiteInlineSources = {
  htmlFiles: string[];
  /** Sorted, distinct CSP hash sources. */
  scriptHashes: string[];
  styleHashes: string[];
  styleAttributeHashes: string[];
  /** Problems no hash-based policy can allow: event-handler attributes and javascript: URLs. */
  problems: string[];
};

/** Scans every .html file under publicDir (relative paths in the result use "/"). */
export async function collectSiteInlineSources(publicDir: string): Promise<SiteInlineSources> {
  const htmlFiles = (await listFiles(publicDir)).filter((file) => file.endsWith(".html"));
  const scripts = new Set<string>();
  const styles = new Set<string>();
  const styleAttributes = new Set<string>();
  const problems: string[] = [];
  for (const file of htmlFiles) {
    const found = findInlineSources(await fs.readFile(path.join(publicDir, file), "utf8"));
    found.scripts.forEach((text) => scripts.add(cspHash(text)));
    found.styles.forEach((text) => styles.add(cspHash(text)));
    found.styleAttributes.forEach((text) => styleAttributes.add(cspHash(text)));
    for (const where of found.eventHandlerAttributes)
      problems.push(`${file}: inline event handler ${where}`);
    for (const where of found.javascriptUrls) problems.push(`${file}: javascript: URL in ${where}`);
  }
  return {
    htmlFiles,
    scriptHashes: [...scripts].sort(),
    styleHashes: [...styles].sort(),
    styleAttributeHashes: [...styleAttributes].sort(),
    problems,
  };
}

/** The origin (scheme, host, port) of the Supabase URL, the only cross-origin host the page calls. */
export function supabaseOrigin(supabaseUrl: string | undefined): string {
  const value = supabaseUrl?.trim() ?? "";
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new SecurityHeadersError(
      `Cannot write the Content-Security-Policy: GATSBY_SUPABASE_URL must be the project's http(s) URL (got "${value}").`,
    );
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new SecurityHeadersError(
      `Cannot write the Content-Security-Policy: GATSBY_SUPABASE_URL must use http or https (got "${value}").`,
    );
  }
  return url.origin;
}

export function placeholderValues(sources: SiteInlineSources, origin: string): PlaceholderValues {
  return {
    "inline-script-hashes": sources.scriptHashes.join(" "),
    "inline-style-hashes": sources.styleHashes.join(" "),
    // Without hashes, 'unsafe-hashes' alone allows nothing; say 'none' instead (see normalizeCsp).
    "style-attribute-hashes":
      sources.styleAttributeHashes.length > 0
        ? ["'unsafe-hashes'", ...sources.styleAttributeHashes].join(" ")
        : "",
    "supabase-origin": origin,
  };
}

/**
 * Fills {{placeholders}} in the template's header lines, drops its comments (the output is
 * generated) and tidies every Content-Security-Policy value. Throws on an unknown placeholder.
 */
export function fillHeadersTemplate(template: string, values: PlaceholderValues): string {
  const lines = template.split(/\r?\n/).filter((line) => !line.trim().startsWith("#"));
  const filled = lines.map((line) => {
    const replaced = line.replace(PLACEHOLDER_PATTERN, (_whole, name: string) => {
      if (!(PLACEHOLDERS as readonly string[]).includes(name)) {
        throw new SecurityHeadersError(
          `static/_headers uses an unknown placeholder {{${name}}} (known: ${PLACEHOLDERS.join(", ")}).`,
        );
      }
      return values[name as Placeholder];
    });
    const csp = /^(\s*Content-Security-Policy(?:-Report-Only)?\s*:\s*)(.*)$/i.exec(replaced);
    return csp ? `${csp[1]}${normalizeCsp(csp[2] ?? "")}` : replaced.replace(/\s+$/, "");
  });
  const body = filled
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  return `# Generated by build-time/security-headers.ts from static/_headers at build time: edit the template.\n${body}\n`;
}

/** Throws unless the policy passes build-time/csp.ts's strictPolicyProblems. */
export function assertStrictPolicy(policy: string, origin: string): void {
  const problems = strictPolicyProblems(policy, origin);
  if (problems.length > 0)
    throw new SecurityHeadersError(
      `The generated Content-Security-Policy is too permissive: ${problems.join("; ")}.`,
    );
}

/** Checks the generated file as a host would read it. Returns the rules. */
export function validateHeadersFile(text: string, urlPaths: readonly string[]): HeaderRule[] {
  const longLines = text.split("\n").filter((line) => line.length > MAX_HEADERS_LINE_LENGTH);
  if (longLines.length > 0) {
    const name = longLines[0]!.trim().split(":")[0];
    throw new SecurityHeadersError(
      `_headers has a line of ${longLines[0]!.length} characters (${name}); Cloudflare Pages ignores lines over ${MAX_HEADERS_LINE_LENGTH}.`,
    );
  }
  const leftover = findUnfilledPlaceholder(text);
  if (leftover) throw new SecurityHeadersError(`_headers still holds the placeholder ${leftover}.`);
  const rules = parseHeadersFile(text);
  for (const urlPath of urlPaths) {
    const setBy = new Map<string, string[]>();
    for (const rule of rules) {
      if (!rule.matcher.test(urlPath)) continue;
      for (const name of rule.detached) setBy.delete(name);
      for (const [name] of rule.headers)
        setBy.set(name.toLowerCase(), [...(setBy.get(name.toLowerCase()) ?? []), rule.pattern]);
    }
    for (const [name, patterns] of setBy) {
      if (patterns.length > 1) {
        throw new SecurityHeadersError(
          `_headers sets ${name} for ${urlPath} in more than one rule (${patterns.join(", ")}); hosts would join the values.`,
        );
      }
    }
  }
  return rules;
}

export type WriteSecurityHeadersOptions = {
  /** The built site, usually "public". */
  publicDir: string;
  /** GATSBY_SUPABASE_URL as the build used it. */
  supabaseUrl: string | undefined;
  /** Defaults to static/_headers next to publicDir. */
  templatePath?: string;
};

export type SecurityHeadersResult = SiteInlineSources & {
  outputPath: string;
  contentSecurityPolicy: string;
};

/**
 * Reads the template, scans the built HTML and writes `<publicDir>/_headers`.
 * Throws SecurityHeadersError (nothing is written) when the site needs something a strict
 * policy must not allow, or when the result would not be read correctly by the host.
 */
export async function writeSecurityHeaders(
  options: WriteSecurityHeadersOptions,
): Promise<SecurityHeadersResult> {
  const publicDir = path.resolve(options.publicDir);
  const templatePath =
    options.templatePath ?? path.join(path.dirname(publicDir), "static", "_headers");
  const origin = supabaseOrigin(options.supabaseUrl);
  const template = await fs.readFile(templatePath, "utf8");

  const sources = await collectSiteInlineSources(publicDir);
  if (sources.htmlFiles.length === 0)
    throw new SecurityHeadersError(`No HTML files under ${publicDir}: build the site first.`);
  if (sources.problems.length > 0) {
    throw new SecurityHeadersError(
      `The built pages hold inline JavaScript that the Content-Security-Policy will not allow:\n  ${sources.problems.join("\n  ")}\nUse addEventListener in a component instead.`,
    );
  }

  const text = fillHeadersTemplate(template, placeholderValues(sources, origin));
  const allFiles = await listFiles(publicDir);
  const rules = validateHeadersFile(text, [
    ...allFiles.flatMap(urlPathsForFile),
    "/a-path-that-does-not-exist/",
  ]);
  const contentSecurityPolicy = headersForPath(rules, "/")["content-security-policy"];
  if (!contentSecurityPolicy)
    throw new SecurityHeadersError("static/_headers sets no Content-Security-Policy for /.");
  assertStrictPolicy(contentSecurityPolicy, origin);

  const outputPath = path.join(publicDir, "_headers");
  await fs.writeFile(outputPath, text);
  return { ...sources, outputPath, contentSecurityPolicy };
}

/** The request paths a host serves a published file under. */
export function urlPathsForFile(file: string): string[] {
  const urlPath = `/${file}`;
  if (urlPath === "/index.html") return ["/", urlPath];
  if (urlPath.endsWith("/index.html")) return [urlPath.slice(0, -"index.html".length), urlPath];
  return [urlPath];
}
