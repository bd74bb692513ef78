import { FORM_NEAR_MARGIN } from "../lib/meeting-form-island";
import { CONTACT_FORM_ID } from "../lib/scroll-to-section";
import { whenNearViewport } from "../lib/when-near-viewport";

/**
 * Makes the submit find its way open, from the moment the form's section comes near the viewport
 * (not with the page, so the first load and its LCP do not pay for it), in parallel with the form's
 * own script and React:
 * - a `<link rel=preconnect crossorigin>` opens a connection to Supabase at once (DNS, TCP, TLS:
 *   one to three round trips on a phone's network), for the insert, a CORS request without
 *   credentials;
 * - the submit path (supabase-js) loads, and sends the insert request with no rows
 *   (warmUpContactsInsert): Chromium sends CORS preflights on connections of their own, which a
 *   preconnect does not open, so only a request of the same shape warms the preflight's connection,
 *   and its answer (kept 5 s).
 */
export function prepareSubmitNearForm(doc: Document, url: string | undefined = process.env.GATSBY_SUPABASE_URL): void {
  const section = doc.getElementById(CONTACT_FORM_ID);
  if (!section || !url) return;
  whenNearViewport(
    section,
    () => {
      const link = doc.createElement("link");
      link.rel = "preconnect";
      link.href = new URL(url).origin;
      link.crossOrigin = "anonymous";
      doc.head.appendChild(link);
      import("../lib/submit-meeting-request")
        .then(({ warmUpContactsInsert }) => warmUpContactsInsert())
        .catch(() => undefined); // the submit loads it again
    },
    FORM_NEAR_MARGIN,
    (doc.defaultView ?? window) as Window & typeof globalThis,
  );
}
