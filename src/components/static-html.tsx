import React from "react";
import type { ReactNode } from "react";
import * as styles from "./static-html.module.css";

/** The markup is already in the page: React adopts the element and never looks inside it. */
const KEEP_SERVER_HTML = { __html: "" };

/**
 * A part of the page that never changes after the build. Its children render into the HTML at
 * build time; in the browser bundle they are left out (`{process.env.BUILD_STAGE !== "build-javascript" && …}`, so webpack
 * drops their code) and this wrapper keeps the server's HTML as it is: nothing to download,
 * nothing to hydrate. The wrapper is `display: contents`, so the layout does not see it.
 *
 * The page must therefore arrive as HTML: a client-side navigation (Gatsby's <Link>) to it would
 * render these parts empty. Link to such a page with a plain <a>.
 */
export function StaticHtml({ children }: { children: ReactNode }) {
  if (children === false || children === null || children === undefined) {
    return <div className={styles.staticHtml} dangerouslySetInnerHTML={KEEP_SERVER_HTML} suppressHydrationWarning />;
  }
  return <div className={styles.staticHtml}>{children}</div>;
}
