import React from "react";
import { graphql } from "gatsby";
import * as styles from "./contact-card.module.css";

type ContactCardProps = {
  title: string;
  contact: Queries.ContactDetailsFragment;
};

export function ContactCard({ title, contact }: ContactCardProps) {
  const { address, labels } = contact;
  return (
    <section className={styles.card} aria-labelledby="contact-information-heading">
      <h3 id="contact-information-heading" className={styles.title}>
        {title}
      </h3>
      <dl className={styles.list}>
        <div className={styles.item}>
          <dt>{labels.address}</dt>
          <dd>
            <address className={styles.address}>
              {address.street}
              <br />
              {address.city}, {address.region} {address.postalCode}
            </address>
          </dd>
        </div>
        <div className={styles.item}>
          <dt>{labels.phone}</dt>
          <dd>
            <a href={`tel:${contact.phone.replace(/[^\d+]/g, "")}`}>{contact.phone}</a>
          </dd>
        </div>
        <div className={styles.item}>
          <dt>{labels.email}</dt>
          <dd>
            <a href={`mailto:${contact.email}`}>{contact.email}</a>
          </dd>
        </div>
        <div className={styles.item}>
          <dt>{labels.booth}</dt>
          <dd className={styles.booth}>#{contact.booth}</dd>
        </div>
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
