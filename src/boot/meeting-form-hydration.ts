import { MEETING_FORM_CONTENT_ID, MEETING_FORM_ISLAND_ID } from "../lib/meeting-form-island";
import { CONTACT_FORM_ID } from "../lib/scroll-to-section";
import { whenNeeded } from "../lib/when-needed";

/** The form's content as the build wrote it into the page, or undefined when the page has none. */
export function meetingFormContentIn(doc: Document): Queries.MeetingFormFragment | undefined {
  const block = doc.getElementById(MEETING_FORM_CONTENT_ID);
  return block?.textContent
    ? (JSON.parse(block.textContent) as Queries.MeetingFormFragment)
    : undefined;
}

// Only hydrateMeetingForm: the root's component is for the HTML renderer (meeting-form-island.tsx).
const loadRoot = () =>
  import(
    /* webpackChunkName: "meeting-form", webpackExports: ["hydrateMeetingForm"] */ "../components/meeting-form-root"
  );

/** A task boundary: the chunk's modules run in one task, the hydration starts in the next. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Hydrates the built page's form when the browser is idle after the load, or at the latest when the
 * visitor first focuses or presses anything in the form's section (a call to action moves focus
 * there; at once if focus is already there when this runs). Returns a function that cancels it. A
 * chunk that fails to load is tried again at the visitor's next focus or press there.
 *
 * No React until then: this module is part of the page's start-up script (src/boot/page-boot.ts),
 * React and the form come with the chunk.
 */
export function hydrateMeetingFormWhenNeeded(
  doc: Document = document,
  content = meetingFormContentIn(doc),
): () => void {
  const island = doc.getElementById(MEETING_FORM_ISLAND_ID);
  const section = doc.getElementById(CONTACT_FORM_ID);
  if (!island || !section || !content) return () => undefined;
  const win = doc.defaultView ?? window;
  let cancel = () => {};
  const hydrate = () => {
    loadRoot()
      .then(async ({ hydrateMeetingForm }) => {
        await nextTask();
        hydrateMeetingForm(island, content);
      })
      .catch((error: unknown) => {
        console.warn(
          "The meeting form's script did not load; trying again at the next visit to the form.",
          error,
        );
        cancel = whenNeeded(section, hydrate, { idle: false, ifAlreadyThere: false }, win);
      });
  };
  cancel = whenNeeded(section, hydrate, {}, win);
  return () => cancel();
}
