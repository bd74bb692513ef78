import React from "react";
import { graphql } from "gatsby";
import { CtaLink } from "./cta-link";
import * as styles from "./consulting-block.module.css";

export function ConsultingBlock({ consulting }: { consulting: Queries.ConsultingBlockFragment }) {
  return (
    <section className={styles.block} aria-labelledby="consulting-heading">
      <div>
        <p className={styles.eyebrow}>{consulting.eyebrow}</p>
        <h3 id="consulting-heading" className={styles.heading}>
          {consulting.heading}
        </h3>
        <p className={styles.summary}>{consulting.summary}</p>
        <ul className={styles.points}>
          {consulting.points.map((point) => (
            <li key={point}>{point}</li>
          ))}
        </ul>
        <CtaLink ctaId="consulting">{consulting.ctaLabel}</CtaLink>
      </div>
      <dl className={styles.figures}>
        {consulting.figures.map((figure) => (
          <div key={figure.label} className={styles.figure}>
            <dt className={styles.figureLabel}>{figure.label}</dt>
            <dd className={styles.figureValue}>{figure.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

export const query = graphql`
  fragment ConsultingBlock on ConsultingContent {
    eyebrow
    heading
    summary
    figures {
      value
      label
    }
    points
    ctaLabel
  }
`;
