import React from "react";
import type { ReactNode } from "react";
import { CONTACT_FORM_ID, CTA_ATTRIBUTE, type CtaId } from "../lib/page-markers";
import * as styles from "./cta-link.module.css";

type CtaLinkProps = {
  children: ReactNode;
  /** Which call to action this is, for counting its taps (docs/analytics.md). */
  ctaId: CtaId;
  variant?: "primary" | "outline";
};

/**
 * Every call to action is a real link to the form, so it works before any script; once the page's
 * script runs, the scroll is smooth and focus follows (src/lib/scroll-to-section.ts).
 */
export function CtaLink({ children, ctaId, variant = "primary" }: CtaLinkProps) {
  return (
    <a
      href={`#${CONTACT_FORM_ID}`}
      className={`${styles.cta} ${styles[variant]}`}
      {...{ [CTA_ATTRIBUTE]: ctaId }}
    >
      {children}
      <svg className={styles.arrow} viewBox="0 0 20 20" aria-hidden="true" focusable="false">
        <path
          d="M4 10h11m-4-5 5 5-5 5"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
    </a>
  );
}
