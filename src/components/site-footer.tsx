import React from "react";
import { graphql } from "gatsby";
import { CONTACT_FORM_ID, CTA_ATTRIBUTE } from "../lib/page-markers";
import * as styles from "./site-footer.module.css";

/** A footer link to the form is a call to action too, counted as "footer" (docs/analytics.md). */
const footerCtaAttribute = (href: string) =>
  href === `#${CONTACT_FORM_ID}` ? { [CTA_ATTRIBUTE]: "footer" } : {};

type FooterLinks = readonly { label: string; href: string }[];
const linkItems = (links: FooterLinks) =>
  links.map((link) => (
    <li key={link.label}>
      <a href={link.href} {...footerCtaAttribute(link.href)}>
        {link.label}
      </a>
    </li>
  ));

const MILESTONES = ["established", "transitFocusSince", "microtransitSince"] as const;

type SiteFooterProps = {
  footer: Queries.SiteFooterFragment;
  site: Queries.FooterCompanyFragment;
  contact: Queries.ContactDetailsFragment;
  platformNames: readonly string[];
  /** The year of the build, so the server-rendered page and the browser agree. */
  copyrightYear: string;
};

export function SiteFooter({
  footer,
  site,
  contact,
  platformNames,
  copyrightYear,
}: SiteFooterProps) {
  const { address } = contact;
  return (
    <footer className={styles.footer}>
      <div className={styles.inner}>
        <div>
          <p className={styles.companyName}>{site.companyName}</p>
          <p className={styles.history}>{site.history.summary}</p>
          <ul className={styles.milestones} aria-label={footer.milestonesLabel}>
            {MILESTONES.map((milestone) => (
              <li key={milestone}>
                <span className={styles.year}>{site.history[milestone]}</span>{" "}
                {footer.milestoneLabels[milestone]}
              </li>
            ))}
          </ul>
        </div>

        <nav className={styles.column} aria-labelledby="footer-platforms-heading">
          <h2 id="footer-platforms-heading" className={styles.heading}>
            {footer.platformsHeading}
          </h2>
          <ul className={styles.links}>
            {linkItems(platformNames.map((label) => ({ label, href: "#solutions" })))}
          </ul>
        </nav>

        <nav className={styles.column} aria-labelledby="footer-resources-heading">
          <h2 id="footer-resources-heading" className={styles.heading}>
            {footer.resourcesHeading}
          </h2>
          <a className={styles.download} href={footer.paperDownload.href}>
            <svg viewBox="0 0 20 20" aria-hidden="true" focusable="false">
              <path
                d="M10 3v9m-4-4 4 4 4-4M4 16h12"
                fill="none"
                stroke="currentColor"
                strokeWidth="2"
                strokeLinecap="round"
                strokeLinejoin="round"
              />
            </svg>
            {footer.paperDownload.label}
          </a>
          <ul className={styles.links}>{linkItems(footer.resources)}</ul>
        </nav>

        <div className={styles.column}>
          <h2 className={styles.heading}>{footer.contactHeading}</h2>
          <address className={styles.address}>
            {address.street}
            <br />
            {address.city}, {address.region} {address.postalCode}
            <br />
            <a href={`tel:${contact.phone.replace(/[^\d+]/g, "")}`}>{contact.phone}</a>
            <br />
            <a href={`mailto:${contact.email}`}>{contact.email}</a>
          </address>
          <p className={styles.booth}>{`${contact.labels.booth} #${contact.booth}`}</p>
        </div>
      </div>

      <div className={styles.bottom}>
        <p>
          © {copyrightYear} {site.companyName}. {footer.rightsNotice}
        </p>
        <ul className={styles.legal} aria-label={footer.legalLinksLabel}>
          {linkItems(footer.legalLinks)}
        </ul>
      </div>
    </footer>
  );
}

export const query = graphql`
  fragment SiteFooter on FooterContent {
    platformsHeading
    resourcesHeading
    paperDownload {
      label
      href
    }
    resources {
      label
      href
    }
    contactHeading
    milestonesLabel
    milestoneLabels {
      established
      transitFocusSince
      microtransitSince
    }
    rightsNotice
    legalLinksLabel
    legalLinks {
      label
      href
    }
  }

  fragment FooterCompany on SiteContent {
    companyName
    history {
      established
      transitFocusSince
      microtransitSince
      summary
    }
  }
`;
