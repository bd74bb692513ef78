import { warmUpContactsInsert, type SupabaseEndpoint } from "../lib/contacts-warm-up";
import { FORM_NEAR_MARGIN } from "../lib/meeting-form-island";
import { CONTACT_FORM_ID } from "../lib/scroll-to-section";
import { whenNearViewport } from "../lib/when-near-viewport";

/** Keeps the way warm while the visitor stays on the form; loading it also brings the submit path (supabase-js), ready for the tap. */
const loadKeepWarm = () => import(/* webpackChunkName: "submit-path" */ "../lib/keep-submit-warm");

/**
 * Makes the submit find its way open, from the moment the form's section comes near the viewport
 * (not with the page, so the first load and its LCP do not pay for it), without waiting for
 * supabase-js, React or the form:
 * - a `<link rel=preconnect crossorigin>` opens the connection the insert's POST uses;
 * - the warm-up (src/lib/contacts-warm-up.ts: the insert with no rows) opens the one Chromium sends
 *   preflights on, and leaves the preflight's answer in the cache for 5 s;
 * - while the visitor is on the form, the warm-up is repeated (src/lib/keep-submit-warm.ts), so
 *   the answer is still cached at the tap.
 */
export function prepareSubmitNearForm(
  doc: Document,
  { url, anonKey }: Partial<SupabaseEndpoint> = { url: process.env.GATSBY_SUPABASE_URL, anonKey: process.env.GATSBY_SUPABASE_ANON_KEY },
): void {
  const section = doc.getElementById(CONTACT_FORM_ID);
  const form = section?.querySelector("form");
  if (!section || !form || !url || !anonKey) return;
  const win = (doc.defaultView ?? window) as Window & typeof globalThis;
  const warm = (round = 0) => void warmUpContactsInsert({ url, anonKey }, win.fetch.bind(win), round);
  whenNearViewport(
    section,
    () => {
      const link = doc.createElement("link");
      link.rel = "preconnect";
      link.href = new URL(url).origin;
      link.crossOrigin = "anonymous";
      doc.head.appendChild(link);
      warm();
      const warmedAt = win.performance.now();
      loadKeepWarm()
        .then(({ keepSubmitWarm }) => keepSubmitWarm(section, form, warm, warmedAt, win))
        .catch(() => undefined); // the submit still works, with a preflight of its own
    },
    FORM_NEAR_MARGIN,
    win,
  );
}
