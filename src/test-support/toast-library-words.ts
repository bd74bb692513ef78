/**
 * Words react-toastify ships in its own code: the toast region's default name (the page passes
 * content/meeting.yaml's toastRegionLabel instead, which says the same today), and its close
 * buttons' and progress bars' screen-reader labels, which it offers no option to change.
 */
export const TOAST_LIBRARY_WORDS: ReadonlySet<string> = new Set([
  "Notifications Alt+T",
  "close",
  "notification timer",
]);
