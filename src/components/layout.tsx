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
export function Layout({ children, beforeMain, afterMain }: { children: ReactNode; beforeMain?: ReactNode; afterMain?: ReactNode }) {
  return (
    <>
      <SkipLink targetId={MAIN_CONTENT_ID} />
      {beforeMain}
      <main id={MAIN_CONTENT_ID} tabIndex={-1}>
        {children}
      </main>
      {afterMain}
    </>
  );
}
