import React from "react";
import { MEETING_FORM_CONTENT_ID, MEETING_FORM_ISLAND_ID } from "../lib/meeting-form-island";
import { serializeForScriptElement } from "../lib/script-data";
import { MeetingFormWithToasts } from "./meeting-form-with-toasts";
import * as styles from "./meeting-form-island.module.css";

/**
 * Only the fields of the form's fragment: the object the page query hands over also holds the rest
 * of its section (heading, picture), which the hydration does not need.
 */
function formWordsOnly({ form, productOptions, meetingTimeOptions, successToast, failureToast, toastRegionLabel }: Queries.MeetingFormFragment): Queries.MeetingFormFragment {
  return { form, productOptions, meetingTimeOptions, successToast, failureToast, toastRegionLabel };
}

/**
 * The meeting form as an island. In the built page everything around it is static HTML; the form
 * is rendered into the HTML here, with its words beside it as JSON, and becomes live as its own
 * React root (src/boot/meeting-form-hydration.ts) from a chunk loaded after the page. Until then
 * its inputs are native (what the visitor types stays) and its button is disabled, as the server
 * rendered it. In `gatsby develop` and in tests it is simply part of the page.
 */
export function MeetingFormIsland({ content }: { content: Queries.MeetingFormFragment }) {
  return (
    <>
      <script type="application/json" id={MEETING_FORM_CONTENT_ID} dangerouslySetInnerHTML={{ __html: serializeForScriptElement(formWordsOnly(content)) }} />
      <div id={MEETING_FORM_ISLAND_ID} className={styles.island}>
        <MeetingFormWithToasts content={content} />
      </div>
    </>
  );
}
