import React from "react";
import type { ReactNode } from "react";
import "../styles/tokens.css";
import "../styles/global.css";
import * as styles from "./layout.module.css";

type LayoutProps = {
  children: ReactNode;
  /** The skip link's text (content/site.yaml). */
  skipLinkLabel: string;
  beforeMain?: ReactNode;
  afterMain?: ReactNode;
};

/**
 * The page frame: the skip link first (so it is the first Tab stop), then the banner, the main
 * landmark, and whatever comes after it (the footer).
 */
export function Layout({ children, skipLinkLabel, beforeMain, afterMain }: LayoutProps) {
  return (
    <>
      <a className={styles.skipLink} href="#main">
        {skipLinkLabel}
      </a>
      {beforeMain}
      <main id="main" tabIndex={-1}>
        {children}
      </main>
      {afterMain}
    </>
  );
}
