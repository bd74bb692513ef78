/**
 * The `_headers` file Netlify and Cloudflare Pages read: a path line, then that rule's indented
 * headers. Every matching rule applies, and two setting one header have their values joined; a
 * narrower rule replaces one by detaching it first (`! Name`, as Cloudflare Pages reads it). The
 * e2e static server serves the build through these functions, as a host would.
 */

export type HeaderRule = {
  /** The path pattern exactly as written, e.g. `/static/*`. */
  pattern: string;
  /** Header names as written, in file order; a name repeated in one rule is joined with ", ". */
  headers: Array<[name: string, value: string]>;
  /** Lower-cased names of the headers this rule removes (`! Name`) before setting its own. */
  detached: string[];
  matcher: RegExp;
};

export class HeadersFileError extends Error {
  override name = "HeadersFileError";
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Parses `_headers` text. Throws HeadersFileError, with the line number, on a malformed line. */
export function parseHeadersFile(text: string): HeaderRule[] {
  const rules: HeaderRule[] = [];
  text.split(/\r?\n/).forEach((rawLine, index) => {
    const line = rawLine.trim();
    const fail = (problem: string) => {
      throw new HeadersFileError(`_headers line ${index + 1}: ${problem} ("${line}").`);
    };
    if (line === "" || line.startsWith("#")) return;
    if (line.startsWith("/") || /^https?:\/\//i.test(line)) {
      if (/^[\t ]/.test(rawLine)) fail("a path must not be indented");
      rules.push({ pattern: line, headers: [], detached: [], matcher: patternToRegExp(line) });
      return;
    }
    const rule = rules[rules.length - 1] ?? fail("a header comes before any path");
    if (line.startsWith("!")) {
      const detached = line.slice(1).trim();
      if (!HEADER_NAME.test(detached)) fail("invalid header name to detach");
      rule.detached.push(detached.toLowerCase());
      return;
    }
    const separator = line.indexOf(":");
    if (separator <= 0) fail('expected "Name: value"');
    const [name, value] = [line.slice(0, separator).trim(), line.slice(separator + 1).trim()];
    if (!HEADER_NAME.test(name)) fail("invalid header name");
    if (value === "") fail("the header has no value");
    const existing = rule.headers.find(([other]) => other.toLowerCase() === name.toLowerCase());
    if (existing) existing[1] = `${existing[1]}, ${value}`;
    else rule.headers.push([name, value]);
  });
  return rules;
}

/** `*` any characters, `:name` one segment, a trailing slash optional; a URL pattern by its path. */
function patternToRegExp(pattern: string): RegExp {
  const pathPattern = pattern.replace(/^https?:\/\/[^/]*/i, "") || "/";
  const body = pathPattern
    .split(/(\*|:[A-Za-z_][A-Za-z0-9_]*)/)
    .map((token) => {
      if (token === "*") return ".*";
      if (token.startsWith(":") && token.length > 1) return "[^/]+";
      return token.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("");
  return new RegExp(`^${body.replace(/\/$/, "")}/?$`);
}

/** The headers a host sends for a request path, names lower-cased as Node and fetch present them. */
export function headersForPath(
  rules: readonly HeaderRule[],
  urlPath: string,
): Record<string, string> {
  const pathOnly = urlPath.split(/[?#]/)[0] ?? "/";
  let decoded = pathOnly;
  try {
    decoded = decodeURI(pathOnly);
  } catch {
    // A host matches an undecodable path as it is.
  }
  const result: Record<string, string> = {};
  for (const rule of rules.filter(
    ({ matcher }) => matcher.test(decoded) || matcher.test(pathOnly),
  )) {
    for (const name of rule.detached) delete result[name];
    for (const [name, value] of rule.headers) {
      const key = name.toLowerCase();
      result[key] = result[key] === undefined ? value : `${result[key]}, ${value}`;
    }
  }
  return result;
}
