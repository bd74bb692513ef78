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
 * The page is read by an HTML parser (build-time/html.ts), so a `<script>` inside a comment or
 * an attribute value is not mistaken for one, and `<noscript>` content counts as markup.
 */
import { createHash } from "node:crypto";
import { attributesOf, elementsOf, isExecutableScript, parseHtml, textOf } from "./html";

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

const URL_ATTRIBUTES = new Set(["href", "src", "action", "formaction", "xlink:href"]);

/** Collects everything in one HTML document that a CSP must allow inline. */
export function findInlineSources(html: string): InlineSources {
  const found: InlineSources = {
    scripts: [],
    styles: [],
    styleAttributes: [],
    eventHandlerAttributes: [],
    javascriptUrls: [],
  };
  for (const element of elementsOf(parseHtml(html))) {
    const attributes = attributesOf(element);
    for (const [name, value] of attributes) {
      if (name === "style") found.styleAttributes.push(value);
      else if (name.startsWith("on"))
        found.eventHandlerAttributes.push(`<${element.tagName} ${name}>`);
      else if (URL_ATTRIBUTES.has(name) && /^\s*javascript:/i.test(value))
        found.javascriptUrls.push(`<${element.tagName} ${name}>`);
    }
    if (element.tagName === "script" && !attributes.has("src") && isExecutableScript(attributes))
      found.scripts.push(textOf(element));
    else if (element.tagName === "style") found.styles.push(textOf(element));
  }
  return found;
}
