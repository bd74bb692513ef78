import { catchSubmitsUntilLive } from "../lib/early-submit";
import { MEETING_FORM_ISLAND_ID } from "../lib/meeting-form-island";

/**
 * Makes the server-rendered form's button work before the form's own script has arrived: it is
 * disabled in the HTML (without this script a native submit would send the answers nowhere), and
 * enabled here once a submit can be caught. A caught submit shows the spec's submitting state at
 * once (every control disabled, the button's submitting label), exactly as the form renders it
 * when it hydrates with the waiting submit, which it then sends (src/lib/early-submit.ts).
 */
export function catchEarlySubmits(doc: Document, submittingLabel: string): void {
  const form = doc.querySelector<HTMLFormElement>(`#${MEETING_FORM_ISLAND_ID} form`);
  const button = form?.querySelector<HTMLButtonElement>("button[type=submit]");
  if (!form || !button) return;
  catchSubmitsUntilLive(form, () => {
    for (const control of form.querySelectorAll<HTMLInputElement | HTMLTextAreaElement | HTMLButtonElement>("input,textarea,button")) control.disabled = true;
    button.textContent = submittingLabel;
    form.setAttribute("aria-busy", "true");
  });
  button.disabled = false;
}
