/**
 * What the section components import from "gatsby" in the preview bundle: only the `graphql` tag
 * of their fragments, which Gatsby compiles away in the site's build. Here it is inert.
 */
export function graphql(strings: TemplateStringsArray, ...values: unknown[]): string {
  return String.raw(strings, ...values);
}
