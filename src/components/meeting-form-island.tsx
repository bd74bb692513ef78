import React from "react";
import { MEETING_FORM_CONTENT_ID, MEETING_FORM_ISLAND_ID } from "../lib/meeting-form-island";
import { serializeForScriptElement } from "../lib/script-data";
import type { MeetingFormRoot as MeetingFormRootComponent } from "./meeting-form-root";
import * as styles from "./meeting-form-island.module.css";

/**
 * The form's code stays out of the webpack chunks every page shares: the browser gets it only with
 * the form's own chunk (src/boot/meeting-form-hydration.ts). A static import here would make it a
 * module of the page components' chunk as well, and webpack's split into shared chunks would then
 * put it in a `commons` chunk that page-boot loads at start-up (measured: initial JavaScript 3.7 →
 * 6.8 KB gzip). So the HTML renderer and `gatsby develop` require it here, in a branch webpack
 * drops from the browser bundle (`process.env.BUILD_STAGE` is a constant there).
 */
const MeetingFormRoot: typeof MeetingFormRootComponent | undefined =
  process.env.BUILD_STAGE !== "build-javascript"
    ? // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
      (require("./meeting-form-root") as { MeetingFormRoot: typeof MeetingFormRootComponent })
        .MeetingFormRoot
    : undefined;

/**
 * Only the fields of the form's fragment: the object the page query hands over also holds the rest
 * of its section (heading, picture), which the hydration does not need.
 */
function formWordsOnly({
  form,
  productOptions,
  meetingTimeOptions,
  successToast,
  failureToast,
  toastRegionLabel,
}: Queries.MeetingFormFragment): Queries.MeetingFormFragment {
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
      <script
        type="application/json"
        id={MEETING_FORM_CONTENT_ID}
        dangerouslySetInnerHTML={{ __html: serializeForScriptElement(formWordsOnly(content)) }}
      />
      <div id={MEETING_FORM_ISLAND_ID} className={styles.island}>
        {MeetingFormRoot && <MeetingFormRoot content={content} />}
      </div>
    </>
  );
}
