/**
 * The toasts that report a submit, kept out of the start-up script: React and react-toastify come
 * with the `meeting-form` chunk (src/components/toast-container.tsx), loaded by src/lib/live-form.ts.
 */
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
