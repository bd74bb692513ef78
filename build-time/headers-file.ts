/**
 * The `_headers` file that Netlify and Cloudflare Pages read from the published folder:
 *
 *     # comment
 *     /path/pattern
 *       Header-Name: value
 *
 * A path line starts with "/"; the indented lines below it are that rule's headers. Patterns use
 * `*` (a splat: any characters, slashes included) and `:name` (one path segment). Every rule
 * whose pattern matches a request applies; when two of them set the same header, the values are
 * joined with ", " (Cloudflare Pages documents this; for Content-Security-Policy that would mean
 * two policies both enforced, so our template never sets a header in two overlapping rules).
 *
 * The one way for a narrower rule to replace a header is to detach it first, as Cloudflare Pages
 * reads it: `! Content-Security-Policy` removes the value earlier rules set, then the rule's own
 * value applies. Netlify skips a line without a colon and lets the later matching rule's value
 * win, so the same two lines mean the same there. (The content editor's rule, /admin/*, does this.)
 *
 * The e2e static server uses parseHeadersFile + headersForPath to serve the build as a host would.
 */

export type HeaderRule = {
  /** The path pattern exactly as written, e.g. `/static/*`. */
  pattern: string;
  /** Header names as written, in file order; a name repeated in one rule is joined with ", ". */
  headers: Array<[name: string, value: string]>;
  /** Lower-cased names of headers this rule removes (`! Name`) before setting its own. */
  detached: string[];
  matcher: RegExp;
};

export class HeadersFileError extends Error {
  override name = "HeadersFileError";
}

/** Parses `_headers` text. Throws HeadersFileError (with the line number) on malformed lines. */
export function parseHeadersFile(text: string): HeaderRule[] {
  const rules: HeaderRule[] = [];
  text.split(/\r?\n/).forEach((rawLine, index) => {
    const line = rawLine.trim();
    if (line === "" || line.startsWith("#")) return;
    const where = `_headers line ${index + 1}`;
    if (line.startsWith("/") || /^https?:\/\//i.test(line)) {
      if (/^[\t ]/.test(rawLine))
        throw new HeadersFileError(`${where}: a path must not be indented ("${line}").`);
      rules.push({ pattern: line, headers: [], detached: [], matcher: patternToRegExp(line) });
      return;
    }
    const rule = rules[rules.length - 1];
    if (!rule) throw new HeadersFileError(`${where}: a header comes before any path ("${line}").`);
    if (line.startsWith("!")) {
      const detached = line.slice(1).trim();
      if (!/^[#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(detached))
        throw new HeadersFileError(`${where}: invalid header name to detach "${detached}".`);
      rule.detached.push(detached.toLowerCase());
      return;
    }
    const separator = line.indexOf(":");
    if (separator <= 0)
      throw new HeadersFileError(`${where}: expected "Name: value" (got "${line}").`);
    const name = line.slice(0, separator).trim();
    const value = line.slice(separator + 1).trim();
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
      throw new HeadersFileError(`${where}: invalid header name "${name}".`);
    if (value === "") throw new HeadersFileError(`${where}: header "${name}" has no value.`);
    const existing = rule.headers.find(
      ([existingName]) => existingName.toLowerCase() === name.toLowerCase(),
    );
    if (existing) existing[1] = `${existing[1]}, ${value}`;
    else rule.headers.push([name, value]);
  });
  return rules;
}

/**
 * Turns a rule's path pattern into a RegExp over the request path (no query string).
 * `*` matches any run of characters, slashes included; `:name` matches one segment; everything
 * else is literal. A trailing slash on the request is optional, as on Netlify.
 * An absolute-URL pattern (Cloudflare Pages) is matched on its path only.
 */
export function patternToRegExp(pattern: string): RegExp {
  const pathPattern = pattern.replace(/^https?:\/\/[^/]*/i, "") || "/";
  let body = "";
  for (const token of pathPattern.split(/(\*|:[A-Za-z_][A-Za-z0-9_]*)/)) {
    if (token === "*") body += ".*";
    else if (token.startsWith(":") && token.length > 1) body += "[^/]+";
    else body += token.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  }
  body = body.replace(/\/$/, "");
  return new RegExp(`^${body}/?$`);
}

/**
 * The headers a host sends for this request path (for example `/`, `/missing/`,
 * `/static/a.png`): every matching rule in file order, values of a repeated name joined with ", ",
 * a detached name (`! Name`) removed before the rule's own headers apply.
 * Names are returned lower-cased, as Node's http module and fetch present them.
 */
export function headersForPath(
  rules: readonly HeaderRule[],
  urlPath: string,
): Record<string, string> {
  const pathOnly = urlPath.split(/[?#]/)[0] ?? "/";
  let decoded = pathOnly;
  try {
    decoded = decodeURI(pathOnly);
  } catch {
    // keep the raw path: a host matches undecodable paths literally
  }
  const result: Record<string, string> = {};
  for (const rule of rules) {
    if (!rule.matcher.test(decoded) && !rule.matcher.test(pathOnly)) continue;
    for (const name of rule.detached) delete result[name];
    for (const [name, value] of rule.headers) {
      const key = name.toLowerCase();
      result[key] = result[key] === undefined ? value : `${result[key]}, ${value}`;
    }
  }
  return result;
}
