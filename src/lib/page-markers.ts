/*
 * The ids, attributes and event names the built HTML shares with its scripts: the build's inline
 * loader (build-time/page-scripts.ts), the start-up script (src/boot/page-boot.ts), the components
 * and the form's chunk. A module without imports, so the loader and the start-up script carry
 * nothing else.
 */

/** The meeting form's section: every call to action links to it. */
export const CONTACT_FORM_ID = "contact-form";
/** Holds the meeting form and its words (src/components/meeting-form.tsx). */
export const MEETING_FORM_ID = "meeting-form";
/** The form's words as JSON, written beside it at build time, for its script. */
export const MEETING_FORM_CONTENT_ID = "meeting-form-content";
/** How near the form must come to the viewport before the page prepares its submit: half a screen. */
export const FORM_NEAR_MARGIN = "50% 0px";
/** Set on the form's section by the loader when it warmed the way to Supabase, with the time (performance.now()). */
export const WARMED_UP_ATTRIBUTE = "data-warmed-up";
/** Marks the not-found page's content, so the start-up script knows which page it is on. */
export const NOT_FOUND_ATTRIBUTE = "data-not-found-page";
/** Marks the booking page's content: it starts its own script, not page-boot (src/pages/book.tsx). */
export const BOOKING_PAGE_ATTRIBUTE = "data-booking-page";

/** Names a call to action for counting (docs/analytics.md). */
export const CTA_ATTRIBUTE = "data-cta";
/** The calls to action as their links carry them (the database accepts offering-1 to offering-99). */
export type CtaId = "hero" | "consulting" | "expo" | "footer" | `offering-${number}`;
/** The DOM event the form dispatches when a request was sent or failed (counted by src/lib/site-analytics.ts). */
export const FORM_OUTCOME_EVENT = "site-analytics:form-outcome";
export type FormOutcome = "request_sent" | "request_failed";

/** What the not-found page tells the console (spec: the not-found page). */
export function logMissingPath(pathname: string): void {
  console.error("404 Error: User attempted to access non-existent route:", pathname);
}
