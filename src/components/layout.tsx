import React from "react";
import type { ReactNode } from "react";
import "../styles/tokens.css";
import "../styles/global.css";
import { SkipLink } from "./skip-link";

export const MAIN_CONTENT_ID = "main";

/**
 * The page frame: the skip link first (so it is the first Tab stop), then the banner,
 * the main landmark, and whatever comes after it (the footer).
 */
type LayoutProps = {
  children: ReactNode;
  /** The skip link's text (content/site.yaml). */
  skipLinkLabel: string;
  beforeMain?: ReactNode;
  afterMain?: ReactNode;
};

export function Layout({ children, skipLinkLabel, beforeMain, afterMain }: LayoutProps) {
  return (
    <>
      <SkipLink targetId={MAIN_CONTENT_ID} label={skipLinkLabel} />
      {beforeMain}
      <main id={MAIN_CONTENT_ID} tabIndex={-1}>
        {children}
      </main>
      {afterMain}
    </>
  );
}
