import React from "react";
import { graphql } from "gatsby";
import { CtaLink } from "./cta-link";
import * as styles from "./hero.module.css";

export function Hero({ hero }: { hero: Queries.HeroSectionFragment }) {
  return (
    <section className={styles.hero} aria-labelledby="hero-heading">
      <svg
        className={styles.routes}
        viewBox="0 0 600 400"
        preserveAspectRatio="xMaxYMid slice"
        aria-hidden="true"
        focusable="false"
      >
        <path
          d="M40 380 C 180 300, 220 200, 340 190 S 520 120, 590 20"
          fill="none"
          stroke="#F2B33D"
          strokeWidth="5"
          strokeLinecap="round"
        />
        <path
          d="M0 300 C 140 280, 260 300, 360 250 S 520 210, 600 220"
          fill="none"
          stroke="#3BA3A3"
          strokeWidth="3"
          strokeDasharray="1 12"
          strokeLinecap="round"
        />
        <path
          d="M250 40 L 320 100 L 450 100 L 520 30"
          fill="none"
          stroke="#8FB8E6"
          strokeWidth="3"
          opacity="0.5"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
        <circle cx="340" cy="190" r="9" fill="#FFFFFF" />
        <circle cx="340" cy="190" r="4" fill="#F2B33D" />
        <circle cx="590" cy="20" r="9" fill="#FFFFFF" />
        <circle cx="320" cy="100" r="6" fill="#8FB8E6" opacity="0.7" />
      </svg>
      <div className={styles.inner}>
        <p className={styles.eyebrow}>{hero.eyebrow}</p>
        <h1 id="hero-heading" className={styles.headline}>
          {hero.headline}
        </h1>
        <p className={styles.lead}>{hero.lead}</p>
        <CtaLink ctaId="hero">{hero.ctaLabel}</CtaLink>
        <dl className={styles.stats}>
          {hero.stats.map((stat) => (
            <div key={stat.label} className={styles.stat}>
              <dt className={styles.statLabel}>{stat.label}</dt>
              <dd className={styles.statValue}>{stat.value}</dd>
            </div>
          ))}
        </dl>
      </div>
    </section>
  );
}

export const query = graphql`
  fragment HeroSection on HeroContent {
    eyebrow
    headline
    lead
    ctaLabel
    stats {
      value
      label
    }
  }
`;
