import React from "react";
import { CONTACT_FORM_ID } from "../lib/scroll-to-section";
import { whenNeeded } from "../lib/when-needed";
import type { MeetingFormWithToasts as MeetingFormWithToastsComponent } from "./meeting-form-with-toasts";
import * as staticHtml from "./static-html.module.css";

export const MEETING_FORM_ISLAND_ID = "meeting-form";

/**
 * The form's code stays out of the page's first download: webpack must not even see it from the
 * page. A static import would put the module in the page's chunk (the lazily loaded root below
 * uses it), so the HTML renderer and `gatsby develop` require it here, in a branch webpack drops
 * from the browser bundle (`process.env.BUILD_STAGE` is a constant there).
 */
const MeetingFormWithToasts: typeof MeetingFormWithToastsComponent | undefined =
  process.env.BUILD_STAGE !== "build-javascript"
    ? // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
      (require("./meeting-form-with-toasts") as { MeetingFormWithToasts: typeof MeetingFormWithToastsComponent }).MeetingFormWithToasts
    : undefined;

/**
 * The meeting form as an island. In the built page everything around it is static HTML
 * (src/pages/index.tsx); the form is rendered into the HTML here and becomes live as its own React
 * root (hydrateMeetingFormWhenNeeded) from a chunk loaded after the page, so the first download
 * carries none of its code. Until then its inputs are native (what the visitor types stays) and its
 * button is disabled, as the server rendered it. In `gatsby develop` and in tests it is simply
 * part of the page.
 */
export function MeetingFormIsland({ content }: { content: Queries.MeetingFormFragment }) {
  return <div id={MEETING_FORM_ISLAND_ID} className={staticHtml.staticHtml}>{MeetingFormWithToasts && <MeetingFormWithToasts content={content} />}</div>;
}

const loadRoot = () => import(/* webpackChunkName: "meeting-form" */ "./meeting-form-root");

/**
 * Hydrates the built page's form when the browser is idle after the load, or at the latest when the
 * visitor first focuses or presses anything in the form's section (a call to action moves focus
 * there). Returns a function that cancels it. A chunk that fails to load is tried again at the
 * visitor's next focus or press there.
 */
export function hydrateMeetingFormWhenNeeded(content: Queries.MeetingFormFragment, doc: Document = document): () => void {
  const island = doc.getElementById(MEETING_FORM_ISLAND_ID);
  const section = doc.getElementById(CONTACT_FORM_ID);
  if (!island || !section) return () => undefined;
  let cancel = () => {};
  const hydrate = () => {
    loadRoot()
      .then(({ hydrateMeetingForm }) => hydrateMeetingForm(island, content))
      .catch((error: unknown) => {
        console.warn("The meeting form's script did not load; trying again at the next visit to the form.", error);
        cancel = whenNeeded(section, hydrate, { idle: false });
      });
  };
  cancel = whenNeeded(section, hydrate);
  return () => cancel();
}
