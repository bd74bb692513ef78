import React from "react";
import { graphql } from "gatsby";
import { ConsultingBlock } from "./consulting-block";
import { OfferingCard } from "./offering-card";
import * as styles from "./solutions-section.module.css";

type SolutionsSectionProps = {
  solutions: Queries.SolutionsSectionFragment;
  consulting: Queries.ConsultingBlockFragment;
};

export function SolutionsSection({ solutions, consulting }: SolutionsSectionProps) {
  return (
    <section id="solutions" className={styles.section} aria-labelledby="solutions-heading">
      <div className="page-width">
        <div className={styles.intro}>
          <h2 id="solutions-heading" className={styles.heading}>
            {solutions.heading}
          </h2>
          <p className={styles.lead}>{solutions.intro}</p>
        </div>
        <div className={styles.grid}>
          {solutions.offerings.map((offering, index) => (
            <OfferingCard
              key={offering.name}
              offering={offering}
              ctaLabel={solutions.ctaLabel}
              ctaAboutWord={solutions.ctaAboutWord}
              position={index + 1}
            />
          ))}
        </div>
        <ConsultingBlock consulting={consulting} />
      </div>
    </section>
  );
}

export const query = graphql`
  fragment SolutionsSection on SolutionsContent {
    heading
    intro
    ctaLabel
    ctaAboutWord
    offerings {
      ...OfferingCard
    }
  }
`;
