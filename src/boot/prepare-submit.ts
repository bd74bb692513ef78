import { FORM_NEAR_MARGIN } from "../lib/meeting-form-island";
import { CONTACT_FORM_ID } from "../lib/scroll-to-section";
import { whenNearViewport } from "../lib/when-near-viewport";

/** Keeps the way warm while the visitor stays on the form; loading it also brings the submit path (supabase-js), ready for the tap. */
const loadKeepWarm = () => import(/* webpackChunkName: "submit-path" */ "../lib/keep-submit-warm");

/**
 * When the form's section comes near the viewport (not with the page, so the first load and its
 * LCP do not pay for it), runs the submit path (supabase-js, the insert), which the page's loader
 * has already started to download, and keeps the way to Supabase warm while the visitor stays on
 * the form (src/lib/keep-submit-warm.ts). The loader itself opened that way at the same moment,
 * without waiting for this script (build-time/page-scripts.ts, warmUpWhenNear).
 */
export function prepareSubmitNearForm(doc: Document): void {
  const section = doc.getElementById(CONTACT_FORM_ID);
  const form = section?.querySelector("form");
  if (!section || !form) return;
  const win = (doc.defaultView ?? window) as Window & typeof globalThis;
  whenNearViewport(
    section,
    () => {
      loadKeepWarm()
        .then(({ keepContactsInsertWarm }) => keepContactsInsertWarm(section, form, win))
        .catch(() => undefined); // the submit loads it again, and sends its own preflight
    },
    FORM_NEAR_MARGIN,
    win,
  );
}
