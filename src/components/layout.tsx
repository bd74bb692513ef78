import React from "react";
import type { ReactNode } from "react";
import "../styles/tokens.css";
import "../styles/global.css";
import { SkipLink } from "./skip-link";

export const MAIN_CONTENT_ID = "main";

/** The page frame: skip link, the main landmark, then whatever comes after it (the footer). */
export function Layout({ children, afterMain }: { children: ReactNode; afterMain?: ReactNode }) {
  return (
    <>
      <SkipLink targetId={MAIN_CONTENT_ID} />
      <main id={MAIN_CONTENT_ID} tabIndex={-1}>
        {children}
      </main>
      {afterMain}
    </>
  );
}
