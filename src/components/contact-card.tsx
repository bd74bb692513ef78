import React from "react";
import type { ReactNode } from "react";
import { graphql } from "gatsby";
import * as styles from "./contact-card.module.css";

type ContactCardProps = {
  title: string;
  contact: Queries.ContactDetailsFragment;
};

/** One term of the card and what it says. */
const item = (term: string, detail: ReactNode, className?: string) => (
  <div className={styles.item}>
    <dt>{term}</dt>
    <dd className={className}>{detail}</dd>
  </div>
);

export function ContactCard({ title, contact }: ContactCardProps) {
  const { address, labels } = contact;
  return (
    <section className={styles.card} aria-labelledby="contact-information-heading">
      <h3 id="contact-information-heading" className={styles.title}>
        {title}
      </h3>
      <dl className={styles.list}>
        {item(
          labels.address,
          <address className={styles.address}>
            {address.street}
            <br />
            {address.city}, {address.region} {address.postalCode}
          </address>,
        )}
        {item(
          labels.phone,
          <a href={`tel:${contact.phone.replace(/[^\d+]/g, "")}`}>{contact.phone}</a>,
        )}
        {item(labels.email, <a href={`mailto:${contact.email}`}>{contact.email}</a>)}
        {item(labels.booth, `#${contact.booth}`, styles.booth)}
      </dl>
    </section>
  );
}

export const query = graphql`
  fragment ContactDetails on ContactContent {
    address {
      street
      city
      region
      postalCode
      country
    }
    phone
    email
    booth
    labels {
      address
      phone
      email
      booth
    }
  }
`;
