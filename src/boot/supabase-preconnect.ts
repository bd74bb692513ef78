import { FORM_NEAR_MARGIN } from "../lib/meeting-form-island";
import { CONTACT_FORM_ID } from "../lib/scroll-to-section";
import { whenNearViewport } from "../lib/when-near-viewport";

/**
 * Opens the connection to Supabase (DNS, TCP, TLS: one to three round trips on a phone's network)
 * when the form's section comes near the viewport, not with the page: the submit then finds it
 * open. `crossorigin`, because the insert is a CORS request without credentials, which the browser
 * sends on such connections only. The form, once live, keeps it in use (warmUpContactsInsert).
 */
export function preconnectToSupabaseNearForm(doc: Document, url: string | undefined = process.env.GATSBY_SUPABASE_URL): void {
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
    },
    FORM_NEAR_MARGIN,
    (doc.defaultView ?? window) as Window & typeof globalThis,
  );
}
