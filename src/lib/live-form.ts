/**
 * What makes the meeting form work, without React (run by src/boot/page-boot.ts, and by the form
 * component in `gatsby develop` and tests). The answers are read with FormData at the submit, so
 * what was typed or autofilled before the script ran is sent as it shows. The button, disabled in
 * the HTML (a native submit would put the answers in a URL), is enabled here. A submit sends first,
 * then shows the submitting state, and ends with its toast.
 */
import type { ContactRecord } from "./submit-meeting-request";
import {
  CONTACT_FORM_ID,
  FORM_NEAR_MARGIN,
  FORM_OUTCOME_EVENT,
  type FormOutcome,
} from "./page-markers";
import { afterNextPaint, whenNearViewport } from "./scheduling";
import { prepareToasts } from "./toasts";

export type FormSeams = {
  /** Stores the record; rejects on any failure (default: the real insert). */
  submitRequest?: (record: ContactRecord) => Promise<void>;
  /** Starts loading what a submit needs, when the visitor reaches the form. */
  prepareSubmit?: (form: HTMLFormElement) => void;
  /** Starts the page proof, at the visitor's first focus in the form. */
  startProof?: () => void;
};

/** The record's assembly and the insert: the submit path's chunk (src/lib/meeting-request.ts). */
const loadRequest = () => import(/* webpackChunkName: "submit-path" */ "./meeting-request");

/** Runs the submit path (preloaded by build-time/page-scripts.ts); a failure leaves its work to the submit. */
function prepareSubmitPath(form: HTMLFormElement): void {
  import(/* webpackChunkName: "submit-path" */ "./keep-submit-warm")
    .then(({ prepareContactsInsert }) =>
      prepareContactsInsert(form.closest<HTMLElement>(`#${CONTACT_FORM_ID}`) ?? form, form),
    )
    .catch(() => undefined);
}

/** The page proof (src/lib/form-proof.ts), solved in a Web Worker while the visitor types. */
function startPageProof(): void {
  import(/* webpackChunkName: "submit-path" */ "./submit-meeting-request")
    .then(({ startFormProof }) => startFormProof())
    .catch(() => undefined); // without a proof the insert carries a pending ticket
}

/** Makes the form live; returns a function that stops it. */
export function makeFormLive(
  form: HTMLFormElement,
  content: Queries.MeetingFormFragment,
  { submitRequest, prepareSubmit = prepareSubmitPath, startProof = startPageProof }: FormSeams = {},
): () => void {
  const button = form.querySelector<HTMLButtonElement>("button[type=submit]")!;
  const label = content.toastRegionLabel;
  let submitting = false;
  let prepared = false;
  let proofStarted = false;

  const showSubmitting = (on: boolean) => {
    submitting = on;
    const controls = form.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>(
      "input, textarea, button",
    );
    for (const control of controls) control.disabled = on;
    button.textContent = on ? content.form.submittingLabel : content.form.submitLabel;
    form.setAttribute("aria-busy", String(on));
  };
  const prepare = () => {
    if (prepared) return;
    prepared = true;
    afterNextPaint(() => {
      prepareSubmit(form);
      // React for the toasts once the submit path is there: its evaluation never holds up a request.
      void loadRequest().finally(() => afterNextPaint(() => void prepareToasts(label)));
    });
  };
  const onFocus = () => {
    prepare();
    if (proofStarted) return;
    proofStarted = true;
    afterNextPaint(startProof);
  };

  /** `sending` resolves whether a bot sent it (nothing was stored then), or rejects. */
  const finish = async (sending: Promise<boolean>) => {
    const fromBot = await sending.catch((error: unknown) => {
      const why = error instanceof Error ? error.message : error;
      console.error("Meeting request submission failed:", why, error);
      return undefined;
    });
    const sent = fromBot !== undefined;
    const showToast = await prepareToasts(label); // the outcome shows with its toast
    showSubmitting(false);
    if (sent) {
      form.reset();
      proofStarted = false; // the proof was spent: the next focus starts a new one
    }
    if (!fromBot) {
      const outcome: FormOutcome = sent ? "request_sent" : "request_failed";
      form.dispatchEvent(new CustomEvent(FORM_OUTCOME_EVENT, { bubbles: true, detail: outcome }));
    }
    showToast?.(sent ? "success" : "error", sent ? content.successToast : content.failureToast);
  };

  const onSubmit = (event: Event) => {
    event.preventDefault();
    if (submitting) return;
    const answers = new FormData(form); // before the controls are disabled: FormData skips those
    const sending = loadRequest().then(async ({ isFilledByBot, sendMeetingAnswers }) => {
      await sendMeetingAnswers(answers, content, submitRequest);
      return isFilledByBot(answers);
    });
    showSubmitting(true);
    prepare();
    void finish(sending);
  };

  form.addEventListener("submit", onSubmit);
  form.addEventListener("focusin", onFocus);
  const stopWaiting = whenNearViewport(form, prepare, FORM_NEAR_MARGIN);
  if (form.contains(form.ownerDocument.activeElement)) onFocus();
  button.disabled = false;
  return () => {
    form.removeEventListener("submit", onSubmit);
    form.removeEventListener("focusin", onFocus);
    stopWaiting();
  };
}
