import React from "react";
import { graphql } from "gatsby";
import { CONTACT_FORM_ID } from "../lib/page-markers";
import { ContactCard } from "./contact-card";
import { ContentPicture } from "./content-picture";
import { MeetingForm } from "./meeting-form";
import * as styles from "./meeting-section.module.css";

type MeetingSectionProps = {
  meeting: Queries.MeetingSectionFragment;
  contact: Queries.ContactDetailsFragment;
};

export function MeetingSection({ meeting, contact }: MeetingSectionProps) {
  const image = meeting.image.childImageSharp?.gatsbyImageData;
  return (
    // Focusable, so that following a #contact-form link before the page's script has run (a tap at
    // first paint) moves focus here too, and the next Tab goes into the form.
    <section
      id={CONTACT_FORM_ID}
      className={styles.section}
      aria-labelledby="contact-form-heading"
      tabIndex={-1}
    >
      <div className="page-width">
        <header className={styles.intro}>
          <h2 id="contact-form-heading" className={styles.heading} tabIndex={-1} data-focus-target>
            {meeting.heading}
          </h2>
          <p className={styles.subtitle}>{meeting.subtitle}</p>
        </header>
        <div className={styles.layout}>
          <section className={styles.formCard} aria-labelledby="book-your-meeting-heading">
            <h3 id="book-your-meeting-heading" className={styles.cardTitle}>
              {meeting.formTitle}
            </h3>
            <MeetingForm content={meeting} />
          </section>
          <div className={styles.aside}>
            {image && (
              <ContentPicture className={styles.image} image={image} alt={meeting.imageAlt} />
            )}
            <ContactCard title={meeting.contactTitle} contact={contact} />
          </div>
        </div>
      </div>
    </section>
  );
}

export const query = graphql`
  fragment MeetingSection on MeetingContent {
    heading
    subtitle
    image {
      childImageSharp {
        gatsbyImageData(
          width: 560
          placeholder: NONE
          formats: [AUTO, WEBP, AVIF]
          breakpoints: [360, 560, 840, 1120]
        )
      }
    }
    imageAlt
    formTitle
    contactTitle
    ...MeetingForm
  }
`;
