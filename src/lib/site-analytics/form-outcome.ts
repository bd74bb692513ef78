import { FORM_OUTCOME_EVENT, type FormOutcome } from "./events";

/**
 * Tells the page's counting code that a request was sent or failed, without the form depending on
 * it: a bubbling DOM event, which nothing hears unless the visit is being counted. (A module of its
 * own, so that the start-up script, which knows the event's name, does not carry this function.)
 */
export function announceFormOutcome(form: EventTarget, outcome: FormOutcome): void {
  form.dispatchEvent(
    new CustomEvent<FormOutcome>(FORM_OUTCOME_EVENT, { bubbles: true, detail: outcome }),
  );
}
