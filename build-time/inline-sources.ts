/**
 * Finds what a Content-Security-Policy has to allow by hash in a built HTML page, and hashes it
 * the way browsers do.
 *
 * Browsers compare a CSP hash with the SHA-256 of the UTF-8 bytes of:
 * - an inline script: its text exactly as it stands between the tags (script contents are raw
 *   text, so character references are *not* decoded), after the parser's newline normalisation;
 * - an inline `<style>` element: the same;
 * - a `style` attribute (only with 'unsafe-hashes'): the attribute value *after* character
 *   references are decoded, because the hash is taken from the DOM value.
 *
 * The scanner is a small HTML tokenizer rather than a regular expression over the whole file,
 * so that a `<script>` inside a comment or an attribute value is not mistaken for one.
 * `<noscript>` content is scanned as markup: with scripting disabled that is what the browser
 * parses, and its styles then need the same hashes.
 */
import { createHash } from "node:crypto";

export type InlineSources = {
  /** Text of every inline script of an executable type (classic, module, importmap, speculationrules). */
  scripts: string[];
  /** Text of every inline `<style>` element. */
  styles: string[];
  /** Decoded value of every `style` attribute. */
  styleAttributes: string[];
  /** Event-handler attributes (`onclick`, …): allowed by no hash-based policy without 'unsafe-hashes'. */
  eventHandlerAttributes: string[];
  /** `javascript:` URLs in href/src/action/formaction: never allowed. */
  javascriptUrls: string[];
};

/** `'sha256-…'`, the CSP source expression a browser accepts for exactly this text. */
export function cspHash(text: string): string {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

// https://html.spec.whatwg.org/multipage/scripting.html#prepare-the-script-element, step 8-9
const JAVASCRIPT_MIME_TYPES = new Set([
  "application/ecmascript",
  "application/javascript",
  "application/x-ecmascript",
  "application/x-javascript",
  "text/ecmascript",
  "text/javascript",
  "text/javascript1.0",
  "text/javascript1.1",
  "text/javascript1.2",
  "text/javascript1.3",
  "text/javascript1.4",
  "text/javascript1.5",
  "text/jscript",
  "text/livescript",
  "text/x-ecmascript",
  "text/x-javascript",
]);
/** Non-classic script types that CSP still checks (they are parsed or executed by the browser). */
const OTHER_CHECKED_SCRIPT_TYPES = new Set(["module", "importmap", "speculationrules"]);

/**
 * Whether a `<script>` with these attributes is run (or otherwise processed) by the browser and
 * therefore needs to pass script-src. Data blocks such as `application/ld+json` do not.
 */
export function isExecutableScript(attributes: ReadonlyMap<string, string>): boolean {
  const type = attributes.get("type");
  const language = attributes.get("language");
  let effectiveType: string;
  if (type === undefined) {
    if (language === undefined || language === "") return true;
    effectiveType = `text/${language}`;
  } else {
    if (type === "") return true;
    effectiveType = type;
  }
  const normalized = effectiveType.replace(/^[\t\n\f\r ]+|[\t\n\f\r ]+$/g, "").toLowerCase();
  return JAVASCRIPT_MIME_TYPES.has(normalized) || OTHER_CHECKED_SCRIPT_TYPES.has(normalized);
}

/** Elements whose content the tokenizer does not parse as markup. */
const RAW_TEXT_ELEMENTS = new Set(["script", "style", "xmp", "iframe", "noembed", "noframes", "textarea", "title"]);
const URL_ATTRIBUTES = new Set(["href", "src", "action", "formaction", "xlink:href"]);

/** Collects everything in one HTML document that a CSP must allow inline. */
export function findInlineSources(html: string): InlineSources {
  // The HTML parser normalises CR LF and lone CR to LF before tokenizing.
  const source = html.replace(/\r\n?/g, "\n");
  const found: InlineSources = {
    scripts: [],
    styles: [],
    styleAttributes: [],
    eventHandlerAttributes: [],
    javascriptUrls: [],
  };

  let index = 0;
  while (index < source.length) {
    const open = source.indexOf("<", index);
    if (open === -1) break;

    if (source.startsWith("<!--", open)) {
      const close = source.indexOf("-->", open + 4);
      index = close === -1 ? source.length : close + 3;
      continue;
    }
    if (source[open + 1] === "!" || source[open + 1] === "?") {
      const close = source.indexOf(">", open);
      index = close === -1 ? source.length : close + 1;
      continue;
    }
    if (source[open + 1] === "/") {
      const close = source.indexOf(">", open);
      index = close === -1 ? source.length : close + 1;
      continue;
    }
    if (!/[A-Za-z]/.test(source[open + 1] ?? "")) {
      index = open + 1;
      continue;
    }

    const tag = readStartTag(source, open);
    index = tag.end;

    for (const [name, value] of tag.attributes) {
      if (name === "style") found.styleAttributes.push(decodeCharacterReferences(value));
      else if (name.startsWith("on")) found.eventHandlerAttributes.push(`<${tag.name} ${name}>`);
      else if (URL_ATTRIBUTES.has(name) && /^\s*javascript:/i.test(decodeCharacterReferences(value))) {
        found.javascriptUrls.push(`<${tag.name} ${name}>`);
      }
    }

    if (RAW_TEXT_ELEMENTS.has(tag.name) && !tag.selfClosing) {
      const closeTag = findClosingTag(source, tag.name, tag.end);
      const text = source.slice(tag.end, closeTag.start);
      if (tag.name === "script") {
        if (!tag.attributes.has("src") && isExecutableScript(tag.attributes)) found.scripts.push(text);
      } else if (tag.name === "style") {
        found.styles.push(text);
      }
      index = closeTag.end;
    }
  }
  return found;
}

type StartTag = { name: string; attributes: Map<string, string>; selfClosing: boolean; end: number };

function readStartTag(source: string, open: number): StartTag {
  let position = open + 1;
  const nameMatch = /^[^\t\n\f\r />]+/.exec(source.slice(position, position + 200));
  const name = (nameMatch?.[0] ?? "").toLowerCase();
  position += nameMatch?.[0].length ?? 0;
  const attributes = new Map<string, string>();
  let selfClosing = false;

  while (position < source.length) {
    while (/[\t\n\f\r ]/.test(source[position] ?? "")) position++;
    const char = source[position];
    if (char === undefined) break;
    if (char === ">") return { name, attributes, selfClosing, end: position + 1 };
    if (char === "/") {
      selfClosing = source[position + 1] === ">";
      position++;
      continue;
    }
    // Attribute name: up to whitespace, "/", ">" or "=" (a leading "=" belongs to the name).
    let nameEnd = position + 1;
    while (nameEnd < source.length && !/[\t\n\f\r />=]/.test(source[nameEnd] ?? "")) nameEnd++;
    const attributeName = source.slice(position, nameEnd).toLowerCase();
    position = nameEnd;
    while (/[\t\n\f\r ]/.test(source[position] ?? "")) position++;
    let value = "";
    if (source[position] === "=") {
      position++;
      while (/[\t\n\f\r ]/.test(source[position] ?? "")) position++;
      const quote = source[position];
      if (quote === '"' || quote === "'") {
        const close = source.indexOf(quote, position + 1);
        const valueEnd = close === -1 ? source.length : close;
        value = source.slice(position + 1, valueEnd);
        position = valueEnd + 1;
      } else {
        let valueEnd = position;
        while (valueEnd < source.length && !/[\t\n\f\r >]/.test(source[valueEnd] ?? "")) valueEnd++;
        value = source.slice(position, valueEnd);
        position = valueEnd;
      }
    }
    // The parser keeps the first of duplicated attributes.
    if (!attributes.has(attributeName)) attributes.set(attributeName, value);
  }
  return { name, attributes, selfClosing, end: source.length };
}

function findClosingTag(source: string, name: string, from: number): { start: number; end: number } {
  const pattern = new RegExp(`</${name}(?=[\\t\\n\\f\\r />])`, "ig");
  pattern.lastIndex = from;
  const match = pattern.exec(source);
  if (!match) return { start: source.length, end: source.length };
  const close = source.indexOf(">", match.index);
  return { start: match.index, end: close === -1 ? source.length : close + 1 };
}

const NAMED_REFERENCES: Readonly<Record<string, string>> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: "\u00a0",
};

/**
 * Decodes character references in an attribute value. Renderers such as React only emit the
 * numeric ones and the named ones above; any other named reference stops the build rather than
 * producing a hash that silently does not match what the browser computes.
 */
export function decodeCharacterReferences(value: string): string {
  return value.replace(/&(#[xX][0-9a-fA-F]+|#[0-9]+|[A-Za-z][A-Za-z0-9]*);/g, (whole, body: string) => {
    if (body.startsWith("#")) {
      const codePoint = body[1] === "x" || body[1] === "X" ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      if (codePoint === 0 || codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff)) return "\ufffd";
      return String.fromCodePoint(codePoint);
    }
    const decoded = NAMED_REFERENCES[body];
    if (decoded === undefined) {
      throw new Error(`Unsupported character reference ${whole} in an attribute value: cannot compute its CSP hash.`);
    }
    return decoded;
  });
}
