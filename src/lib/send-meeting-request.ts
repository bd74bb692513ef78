import type { ContactRecord } from "./meeting-request";
import { buildContactRecord, isFilledByBot, meetingRequestFromForm } from "./meeting-request";

/**
 * The real insert and supabase-js (REST only): not in the page's start-up script. The page's loader
 * preloads this chunk when the visitor nears the form (build-time/page-scripts.ts); it runs at a
 * submit before the form is live (src/boot/early-submit.ts), without waiting for React, or when the
 * live form nears the viewport.
 */
export const loadSubmitPath = () =>
  import(/* webpackChunkName: "submit-path" */ "./submit-meeting-request");

/** Stores one meeting request through supabase-js, loading it first if it is not there yet. */
export async function insertContactRecordLazily(record: ContactRecord): Promise<void> {
  const { insertContactRecord } = await loadSubmitPath();
  await insertContactRecord(record);
}

/**
 * Sends a submitted form's answers as one meeting request; nothing when a bot filled the honeypot.
 * The request leaves in this call's microtasks once the submit path is loaded. Used by the live
 * form and, for a submit before it is live, by the page's start-up script (src/boot/early-submit.ts).
 */
export function sendMeetingAnswers(
  answers: FormData,
  {
    productOptions,
    meetingTimeOptions,
  }: Pick<Queries.MeetingFormFragment, "productOptions" | "meetingTimeOptions">,
  submitRequest: (record: ContactRecord) => Promise<void> = insertContactRecordLazily,
): Promise<void> {
  if (isFilledByBot(answers)) return Promise.resolve();
  return submitRequest(
    buildContactRecord(
      meetingRequestFromForm(answers, productOptions, meetingTimeOptions),
      meetingTimeOptions,
    ),
  );
}
