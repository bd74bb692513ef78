/**
 * The page's <head> tags are written into the HTML once, at build time, and never again.
 *
 * Gatsby marks every tag a page's `Head` export renders with `data-gatsby-head`. In the browser,
 * its head handler removes every marked tag whenever the page re-renders (a click on the skip
 * link or any `#…` link is a location change for its router) and renders the `Head` again to put
 * them back. Our pages define `Head` only outside the browser bundle (src/pages: the SEO tags and
 * the structured data are not shipped as JavaScript), so nothing would put them back: without
 * the marker the handler leaves them alone, and a crawler that runs the page's JavaScript sees
 * the same tags as one that reads the HTML.
 */
import { createElement, isValidElement } from "react";
import type { ReactNode } from "react";

export const GATSBY_HEAD_MARKER = "data-gatsby-head";

/** The head components with Gatsby's marker taken off the tags that carry it (everything else as it was). */
export function withoutHeadMarkers(components: readonly ReactNode[]): ReactNode[] {
  return components.map((component) => {
    if (!isValidElement<Record<string, unknown>>(component) || !(GATSBY_HEAD_MARKER in component.props)) return component;
    const { [GATSBY_HEAD_MARKER]: _marker, ...props } = component.props;
    return createElement(component.type, { ...props, key: component.key });
  });
}
