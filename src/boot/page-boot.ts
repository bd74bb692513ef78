/**
 * The only script the built pages start (after the first paint: build-time/page-scripts.ts);
 * Gatsby's browser runtime is not loaded. On the landing page calls to action scroll to the form,
 * the form works (src/lib/live-form.ts) and the visit is counted; on the not-found page the missing
 * path goes to the console. In `gatsby develop` the page components do the same.
 */
import {
  CONTACT_FORM_ID,
  FORM_OUTCOME_EVENT,
  logMissingPath,
  MEETING_FORM_CONTENT_ID,
  MEETING_FORM_ID,
  NOT_FOUND_ATTRIBUTE,
} from "../lib/page-markers";
import { makeFormLive } from "../lib/live-form";
import { scrollToSectionOnLinkClick } from "../lib/scroll-to-section";

/** The performance mark bootPage leaves once it has run (tests and benchmarks wait for it). */
export const PAGE_BOOT_MARK = "page-boot";

export function bootPage(doc: Document = document): void {
  if (doc.getElementById(CONTACT_FORM_ID)) {
    scrollToSectionOnLinkClick(CONTACT_FORM_ID);
    const form = doc.querySelector<HTMLFormElement>(`#${MEETING_FORM_ID} form`);
    const content = meetingFormContentIn(doc);
    if (form && content) makeFormLive(form, content);
    startSiteAnalytics(doc);
  }
  if (doc.querySelector(`[${NOT_FOUND_ATTRIBUTE}]`)) logMissingPath(location.pathname);
  performance.mark?.(PAGE_BOOT_MARK); // absent in jsdom
}

/** The form's content as the build wrote it into the page (src/components/meeting-form.tsx). */
export function meetingFormContentIn(doc: Document): Queries.MeetingFormFragment | undefined {
  const block = doc.getElementById(MEETING_FORM_CONTENT_ID);
  return block?.textContent
    ? (JSON.parse(block.textContent) as Queries.MeetingFormFragment)
    : undefined;
}

/** The events the counting code counts when it arrives (src/lib/site-analytics.ts, countVisit). */
const COUNTED = ["click", "focusin", FORM_OUTCOME_EVENT];

/**
 * Counts the visit with a chunk of its own, loaded when the browser is first idle (at most 2 s);
 * until then the events it will count are remembered, so a call to action tapped at once counts.
 */
export function startSiteAnalytics(doc: Document = document): void {
  const earlier: Event[] = [];
  const remember = (event: Event) => earlier.push(event);
  const stopRemembering = () => COUNTED.forEach((type) => doc.removeEventListener(type, remember));
  COUNTED.forEach((type) => doc.addEventListener(type, remember));
  const load = () =>
    import(/* webpackChunkName: "site-analytics" */ "../lib/site-analytics").then(
      ({ countVisit }) => {
        stopRemembering();
        countVisit(doc, earlier);
      },
      stopRemembering,
    );
  if ("requestIdleCallback" in window) requestIdleCallback(load, { timeout: 2000 });
  else setTimeout(load, 1);
}
