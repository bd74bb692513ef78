import React from "react";
import { graphql } from "gatsby";
import { isOfferingHeaderStyle } from "../lib/offering-header-styles";
import { CtaLink } from "./cta-link";
import * as styles from "./offering-card.module.css";

type OfferingCardProps = {
  offering: Queries.OfferingCardFragment;
  ctaLabel: string;
  /** Read by screen readers between the button text and the offering's name. */
  ctaAboutWord: string;
  /** The card's place on the page, from 1: its call to action is counted as `offering-<position>`. */
  position: number;
};

export function OfferingCard({ offering, ctaLabel, ctaAboutWord, position }: OfferingCardProps) {
  const headerStyle = isOfferingHeaderStyle(offering.headerStyle) ? offering.headerStyle : "slate";
  return (
    <article className={styles.card}>
      <header className={`${styles.header} ${styles[headerStyle]}`}>
        <h3 className={styles.name}>{offering.name}</h3>
        <p className={styles.subtitle}>{offering.subtitle}</p>
      </header>
      <ul className={styles.highlights}>
        {offering.highlights.map((highlight) => (
          <li key={highlight} className={styles.highlight}>
            <svg className={styles.check} viewBox="0 0 20 20" aria-hidden="true" focusable="false">
              <path
                d="M5 10.5l3 3 7-7"
                fill="none"
                stroke="currentColor"
                strokeWidth="2.2"
                strokeLinecap="round"
                strokeLinejoin="round"
              />
            </svg>
            <span>{highlight}</span>
          </li>
        ))}
      </ul>
      <div className={styles.footer}>
        <CtaLink variant="outline" ctaId={`offering-${position}`}>
          {ctaLabel}
          <span className="visually-hidden">
            {" "}
            {ctaAboutWord} {offering.name}
          </span>
        </CtaLink>
      </div>
    </article>
  );
}

export const query = graphql`
  fragment OfferingCard on Offering {
    name
    subtitle
    headerStyle
    highlights
  }
`;
