/**
 * Built HTML read with parse5 (the WHATWG parser), so the CSP hashes, the page-scripts rewrite and
 * `npm run size` see a page as a browser does. A CSP hash covers an inline script or `<style>` as
 * raw text, and a `style` attribute's value as the DOM holds it (decoded).
 */
import { createHash } from "node:crypto";
import { parse, type DefaultTreeAdapterTypes } from "parse5";

export type HtmlElement = DefaultTreeAdapterTypes.Element;

/**
 * Parsed with scripting disabled, so the styles gatsby-plugin-image puts in `<noscript>` are found
 * (they need hashes too); offsets are kept for rewrites.
 */
export function parseHtml(html: string) {
  return parse(html, { scriptingEnabled: false, sourceCodeLocationInfo: true });
}

/** Every element in document order, `<template>` contents included. */
export function* elementsOf(node: DefaultTreeAdapterTypes.ParentNode): Generator<HtmlElement> {
  for (const child of node.childNodes) {
    if (!("tagName" in child)) continue;
    yield child;
    yield* elementsOf(child);
    if (child.tagName === "template")
      yield* elementsOf((child as DefaultTreeAdapterTypes.Template).content);
  }
}

/** Attribute name (`xlink:href` for a prefixed one) → value as the DOM holds it. */
export function attributesOf(element: HtmlElement): Map<string, string> {
  return new Map(
    element.attrs.map((attribute) => [
      attribute.prefix ? `${attribute.prefix}:${attribute.name}` : attribute.name,
      attribute.value,
    ]),
  );
}

/** The text inside an element such as `<script>` or `<style>`, exactly as written (raw text). */
export function textOf(element: HtmlElement): string {
  return element.childNodes
    .map((child) =>
      child.nodeName === "#text" ? (child as DefaultTreeAdapterTypes.TextNode).value : "",
    )
    .join("");
}

/** The element's start tag as written in the source, e.g. `<script src="/app.js" defer>`. */
export function startTagSource(html: string, element: HtmlElement): string {
  const location = element.sourceCodeLocation?.startTag;
  return location ? html.slice(location.startOffset, location.endOffset) : `<${element.tagName}>`;
}

// https://html.spec.whatwg.org/multipage/scripting.html#prepare-the-script-element, steps 8-9
// (the JavaScript MIME type essence matches), plus the non-classic types CSP still checks.
const CHECKED_SCRIPT_TYPE =
  /^(?:(?:application|text)\/(?:x-)?(?:ecma|java)script|text\/javascript1\.[0-5]|text\/(?:jscript|livescript)|module|importmap|speculationrules)$/;

/** Whether a `<script>` must pass script-src (data blocks such as `application/ld+json` need not). */
export function isExecutableScript(attributes: ReadonlyMap<string, string>): boolean {
  const type = attributes.get("type");
  const language = attributes.get("language");
  if (type === "" || (type === undefined && !language)) return true;
  const effectiveType = type ?? `text/${language}`;
  const normalized = effectiveType.replace(/^[\t\n\f\r ]+|[\t\n\f\r ]+$/g, "").toLowerCase();
  return CHECKED_SCRIPT_TYPE.test(normalized);
}

/** `'sha256-…'`, the CSP source expression a browser accepts for exactly this text. */
export function cspHash(text: string): string {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

const URL_ATTRIBUTES = new Set(["href", "src", "action", "formaction", "xlink:href"]);

/**
 * Everything in one HTML document that a CSP must allow inline: executable inline scripts and
 * `<style>` elements (their text), `style` attributes (decoded); and what no hash-based policy
 * allows: event-handler attributes (`onclick`, …) and `javascript:` URLs.
 */
export function findInlineSources(html: string) {
  const found = {
    scripts: [] as string[],
    styles: [] as string[],
    styleAttributes: [] as string[],
    eventHandlerAttributes: [] as string[],
    javascriptUrls: [] as string[],
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
