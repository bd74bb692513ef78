/**
 * A submit before the form's React root is live: caught by the page's start-up script
 * (src/boot/early-submit.ts), which sends it at once, and handed to the form when it hydrates
 * (src/components/meeting-form.tsx), which shows how it ended. Both load this module through the
 * same webpack runtime, so they share its state. The browser has already checked the required
 * and e-mail fields when the submit event fires.
 */
export type EarlySubmit = {
  answers: FormData;
  /** The request, sent before the form was live (undefined: the form sends the answers itself). */
  sending?: Promise<void>;
};

let pending: EarlySubmit | undefined;
let live = false;
let catching = false;

/**
 * Listens for the form's submit until the form is live: prevents the native submit (it would put
 * the answers in a URL and store nothing), keeps the answers of the first one, starts sending them
 * with `send`, and calls `caught` with the form. Read before `caught` runs: FormData leaves out
 * disabled controls.
 */
export function catchSubmitsUntilLive(
  form: HTMLFormElement,
  caught: (form: HTMLFormElement) => void,
  send?: (answers: FormData) => Promise<void>,
): void {
  catching = true;
  form.addEventListener("submit", (event) => {
    if (live) return;
    event.preventDefault();
    if (pending) return;
    const answers = new FormData(form);
    const sending = send?.(answers);
    sending?.catch(() => undefined); // the form reports the outcome once it is live
    pending = { answers, sending };
    caught(form);
  });
}

/** Whether the page's start-up script catches submits (it then enabled the button before the form was live). */
export function submitsAreCaught(): boolean {
  return catching;
}

/** Whether a submit is waiting for the form (it then renders its submitting state from the start). */
export function earlySubmitPending(): boolean {
  return pending !== undefined;
}

/** Called by the live form: ends the catching, and returns a submit caught before, once. */
export function takeEarlySubmit(): EarlySubmit | undefined {
  live = true;
  const early = pending;
  pending = undefined;
  return early;
}
