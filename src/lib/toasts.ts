/**
 * The toasts that report a submit (spec: about 4 seconds, at most 3 at once), without React or
 * react-toastify in the page's start-up script: both come with the `meeting-form` chunk
 * (src/components/toast-container.tsx), its own React root at the end of the body. The chunk is
 * prefetched at the first paint (build-time/page-scripts.ts) and runs when the visitor reaches the
 * form (src/lib/live-form.ts) or a submit needs it. Their words are content (content/meeting.yaml).
 */
export type { ToastKind, ToastText } from "../components/toast-container";

/**
 * Puts the toast region (named `label` for screen readers) on the page, loading it first; resolves
 * with what shows a toast. Never rejects: a chunk that did not load is tried again by the next call.
 */
export function prepareToasts(label: string) {
  return import(/* webpackChunkName: "meeting-form" */ "../components/toast-container").then(
    ({ mountToasts, showLoadedToast }) => {
      mountToasts(label);
      return showLoadedToast;
    },
    (error: unknown) => console.warn("The toasts' script did not load.", error),
  );
}
