import React from "react";
import { graphql } from "gatsby";
import { CtaLink } from "./cta-link";
import * as styles from "./expo-section.module.css";

export function ExpoSection({
  expo,
  boothLabel,
}: {
  expo: Queries.ExpoSectionFragment;
  boothLabel: string;
}) {
  return (
    <section id="expo" className={styles.section} aria-labelledby="expo-heading">
      <div className="page-width">
        <div className={styles.top}>
          <div>
            <p className={styles.eyebrow}>{expo.eyebrow}</p>
            <h2 id="expo-heading" className={styles.heading}>
              {expo.heading}
            </h2>
            <p className={styles.intro}>{expo.intro}</p>
          </div>
          <p className={styles.booth}>
            <span className={styles.boothEvent}>{expo.eventName}</span>
            <span className={styles.boothWord}>{boothLabel}</span>
            <span className={styles.boothNumber}>{expo.booth}</span>
          </p>
        </div>

        <h3 className={styles.subheading}>{expo.perksHeading}</h3>
        <ul className={styles.perks}>
          {expo.perks.map((perk, index) => (
            <li key={perk.title} className={styles.perk}>
              <span className={styles.perkNumber} aria-hidden="true">
                {String(index + 1).padStart(2, "0")}
              </span>
              <h4 className={styles.perkTitle}>{perk.title}</h4>
              <p className={styles.perkText}>{perk.description}</p>
            </li>
          ))}
        </ul>

        <h3 className={styles.subheading}>{expo.leadersHeading}</h3>
        <ul className={styles.leaders}>
          {expo.leaders.map((leader) => (
            <li key={leader.role} className={styles.leader}>
              <svg
                className={styles.leaderIcon}
                viewBox="0 0 40 40"
                aria-hidden="true"
                focusable="false"
              >
                <circle cx="20" cy="20" r="20" fill="currentColor" opacity="0.12" />
                <circle cx="20" cy="16" r="6.5" fill="currentColor" />
                <path d="M8.5 32c1.8-6 6.3-8.5 11.5-8.5S29.7 26 31.5 32" fill="currentColor" />
              </svg>
              <div>
                <h4 className={styles.leaderRole}>{leader.role}</h4>
                <p className={styles.leaderBio}>{leader.bio}</p>
              </div>
            </li>
          ))}
        </ul>

        <div className={styles.cta}>
          <CtaLink ctaId="expo">{expo.ctaLabel}</CtaLink>
        </div>
      </div>
    </section>
  );
}

export const query = graphql`
  fragment ExpoSection on ExpoContent {
    eyebrow
    heading
    intro
    eventName
    booth
    perksHeading
    perks {
      title
      description
    }
    leadersHeading
    leaders {
      role
      bio
    }
    ctaLabel
  }
`;
