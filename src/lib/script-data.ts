/**
 * JSON for a data block in the HTML (`<script type="application/ld+json">`, `application/json`):
 * `<`, `>` and `&` escaped, so no text in it can close the element or start markup.
 */
export function serializeForScriptElement(data: unknown): string {
  return JSON.stringify(data)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026");
}
