import React from "react";
import { graphql } from "gatsby";
import * as styles from "./site-header.module.css";

type SiteHeaderProps = {
  site: Queries.SiteHeaderFragment;
  booth: string;
  boothLabel: string;
};

export function SiteHeader({ site, booth, boothLabel }: SiteHeaderProps) {
  return (
    <header className={styles.header}>
      <div className={styles.inner}>
        <a className={styles.brand} href="/">
          <svg className={styles.mark} viewBox="0 0 64 64" aria-hidden="true" focusable="false">
            <rect width="64" height="64" rx="14" fill="currentColor" opacity="0.16" />
            <path
              d="M14 46 C 24 30, 34 40, 50 18"
              fill="none"
              stroke="#F2B33D"
              strokeWidth="7"
              strokeLinecap="round"
            />
            <circle cx="14" cy="46" r="6" fill="#FFFFFF" />
            <circle cx="50" cy="18" r="6" fill="#FFFFFF" />
          </svg>
          <span>{site.companyName}</span>
        </a>
        <p className={styles.booth}>
          <span className={styles.boothLabel}>{boothLabel}</span> #{booth}
        </p>
      </div>
    </header>
  );
}

export const query = graphql`
  fragment SiteHeader on SiteContent {
    companyName
  }
`;
