import { logMissingPath, NOT_FOUND_ATTRIBUTE } from "../lib/not-found";
import { CONTACT_FORM_ID, scrollToSectionOnLinkClick } from "../lib/scroll-to-section";
import { catchEarlySubmits } from "./early-submit";
import { hydrateMeetingFormWhenNeeded, meetingFormContentIn } from "./meeting-form-hydration";
import { startSiteAnalytics } from "./site-analytics";

/** The performance mark bootPage leaves once it has run (tests and benchmarks wait for it). */
export const PAGE_BOOT_MARK = "page-boot";

/**
 * Everything the built pages do in the browser, and the only script they start (after the first
 * paint: build-time/page-scripts.ts). The pages are static HTML; Gatsby's own browser runtime
 * (router, page loader, React for the whole page) is not loaded, as nothing on them changes after
 * the build but the form:
 * - on the landing page, calls to action scroll smoothly to the form, a submit before the form is
 *   live is sent at once (the inline loader opened the way to Supabase when the form neared), the
 *   form becomes live (its own React root, from a chunk loaded when it is needed), and the visit is
 *   counted without a tracker (src/boot/site-analytics.ts);
 * - on the not-found page, the missing path goes to the console.
 * In `gatsby develop` the page components do the same with Gatsby's runtime (src/pages/).
 */
export function bootPage(doc: Document = document): void {
  const win = doc.defaultView ?? window;
  if (doc.getElementById(CONTACT_FORM_ID)) {
    scrollToSectionOnLinkClick(CONTACT_FORM_ID, win);
    const content = meetingFormContentIn(doc);
    catchEarlySubmits(doc, content);
    hydrateMeetingFormWhenNeeded(doc, content);
    startSiteAnalytics(doc);
  }
  if (doc.querySelector(`[${NOT_FOUND_ATTRIBUTE}]`)) logMissingPath(win.location.pathname);
  win.performance.mark?.(PAGE_BOOT_MARK); // absent in jsdom
}
