import React, { useEffect } from "react";
import { graphql } from "gatsby";
import type { HeadProps, PageProps } from "gatsby";
import { Layout } from "../components/layout";
import { Seo } from "../components/seo";
import { bootBookingPage } from "../lib/booking-page";
import { BOOKING_PAGE_ATTRIBUTE } from "../lib/page-markers";

/**
 * /book/#<key>: where staff book a request's meeting from the link in their e-mail (docs/booking.md).
 * Not indexed, not in the sitemap. The built page runs only src/lib/booking-page.ts (the
 * `booking-page` entry, build-time/page-scripts.ts); the effect does the same in `gatsby develop`.
 */
export default function BookPage({ data }: PageProps<Queries.BookPageQuery>) {
  useEffect(() => bootBookingPage(), []);
  return (
    <Layout skipLinkLabel={data.siteContent?.skipLinkLabel ?? "Skip to content"}>
      <div className="book" {...{ [BOOKING_PAGE_ATTRIBUTE]: "" }}>
        <h1>Book a meeting</h1>
        <p id="booking-where" className="book-where" />
        <p id="booking-status" className="book-status" role="status">
          Loading the request…
        </p>
        <noscript>This page needs JavaScript to book a meeting.</noscript>
        <section id="booking-request" className="book-card" aria-labelledby="request" hidden>
          <h2 id="request">Request</h2>
          <dl id="booking-details" className="book-details" />
        </section>
        <form id="booking-form" className="book-card" aria-labelledby="meeting" hidden>
          <h2 id="meeting">Meeting</h2>
          <p id="booking-meeting" />
          <h3 id="booking-zone" className="book-zone">
            Free times
          </h3>
          <div id="booking-slots" className="book-slots" />
          <div className="book-actions">
            <button id="booking-submit" type="submit" className="book-primary">
              Book this time
            </button>
            <button id="booking-cancel" type="button" className="book-secondary" hidden>
              Cancel the meeting
            </button>
          </div>
        </form>
      </div>
    </Layout>
  );
}

/**
 * The page's own styles, in its <head> only: Gatsby builds one stylesheet that every page inlines,
 * so a CSS module here would add these rules to what / loads. The design tokens come from it.
 */
const STYLES = `
.book { display: grid; grid-template-columns: minmax(0, 1fr); gap: var(--space-4); max-width: 42rem;
  margin: 0 auto; overflow-wrap: anywhere;
  padding: var(--space-6) var(--page-gutter) var(--space-7); }
.book h1 { color: var(--color-navy-900); font-size: var(--font-size-2xl); }
.book h2 { margin-bottom: var(--space-3); font-size: var(--font-size-lg); }
.book-where { color: var(--color-text-muted); }
.book-status { min-height: 1.6em; font-weight: var(--font-weight-bold); }
.book-card { padding: var(--space-5) var(--space-4); border: 1px solid var(--color-border);
  border-radius: var(--radius-lg); background: var(--color-surface); box-shadow: var(--shadow-card); }
.book-details { display: grid; column-gap: var(--space-4); }
@media (min-width: 30rem) { .book-details { grid-template-columns: max-content 1fr; } }
.book-details dt { font-weight: var(--font-weight-bold); }
.book-details dd { margin: 0 0 var(--space-2); white-space: pre-line; }
.book-zone { margin-top: var(--space-4); font-size: var(--font-size-md); }
.book fieldset { margin: var(--space-4) 0 0; padding: 0; border: 0; }
.book legend { margin-bottom: var(--space-2); font-weight: var(--font-weight-bold); }
.book-slots label { display: inline-flex; align-items: center; gap: var(--space-2); min-height: 44px;
  margin: 0 var(--space-2) var(--space-2) 0; padding: var(--space-2) var(--space-3);
  border: 1px solid var(--color-border); border-radius: var(--radius-pill); cursor: pointer; }
.book-slots label:has(:checked) { border-color: var(--color-ocean-700); background: var(--color-sky-100); }
.book-actions { position: sticky; bottom: 0; display: flex; flex-wrap: wrap; gap: var(--space-3);
  margin-top: var(--space-4); padding: var(--space-3) 0; background: var(--color-surface); }
.book-actions button { min-height: 44px; padding: var(--space-3) var(--space-5); border: 2px solid;
  border-radius: var(--radius-pill); font: inherit; font-weight: var(--font-weight-bold); cursor: pointer; }
.book-primary { border-color: var(--color-ocean-700); background: var(--color-ocean-700);
  color: var(--color-text-inverse); }
.book-secondary { border-color: var(--color-danger); background: var(--color-surface);
  color: var(--color-danger); }
.book-actions button:disabled { opacity: 0.6; cursor: wait; }
`;

export function Head({ location }: HeadProps) {
  return (
    <Seo title="Book a meeting" pathname={location.pathname} noindex>
      <style dangerouslySetInnerHTML={{ __html: STYLES }} />
    </Seo>
  );
}

export const query = graphql`
  query BookPage {
    siteContent {
      skipLinkLabel
    }
  }
`;
