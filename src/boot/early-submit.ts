import { catchSubmitsUntilLive } from "../lib/early-submit";
import { MEETING_FORM_ISLAND_ID } from "../lib/meeting-form-island";

/** The submit path with the step from answers to request (already on its way: the inline loader preloads it when the form nears the viewport, build-time/page-scripts.ts). */
const loadSend = () => import(/* webpackChunkName: "submit-path" */ "../lib/send-meeting-request");

/**
 * Makes the server-rendered form's button work before the form's own script has arrived: it is
 * disabled in the HTML (without this script a native submit would send the answers nowhere), and
 * enabled here once a submit can be caught. A caught submit shows the spec's submitting state at
 * once (every control disabled, the button's submitting label), exactly as the form renders it
 * when it hydrates, and is sent as soon as supabase-js is there, without waiting for React and the
 * form; the form, once live, shows how it ended (src/lib/early-submit.ts).
 */
export function catchEarlySubmits(
  doc: Document,
  content: Queries.MeetingFormFragment | undefined,
): void {
  const form = doc.querySelector<HTMLFormElement>(`#${MEETING_FORM_ISLAND_ID} form`);
  const button = form?.querySelector<HTMLButtonElement>("button[type=submit]");
  if (!form || !button || !content) return;
  catchSubmitsUntilLive(
    form,
    () => {
      for (const control of form.querySelectorAll<
        HTMLInputElement | HTMLTextAreaElement | HTMLButtonElement
      >("input,textarea,button"))
        control.disabled = true;
      button.textContent = content.form.submittingLabel;
      form.setAttribute("aria-busy", "true");
    },
    (answers) => loadSend().then(({ sendMeetingAnswers }) => sendMeetingAnswers(answers, content)),
  );
  button.disabled = false;
}
