/**
 * What the submit benchmark records inside the page (added with addInitScript before any of the
 * page's own scripts), in the page's time (ms since navigation start).
 */
export type SubmitObservations = {
  /** The first paint (Paint Timing). */
  firstPaintMs: number | null;
  /** When the submit button was first enabled. */
  usableMs: number | null;
  /** The tap on the submit button: its click event's time stamp (the input's time). */
  tapMs: number | null;
  /** When the success toast was first in the DOM, and the frame after it. */
  toastMs: number | null;
  toastFrameMs: number | null;
  /** The text of the first toast, to tell success from failure. */
  toastText: string | null;
  /** Resource Timing entries of requests to `/rest/v1/contacts`: when fetch() was called, when the answer had arrived. */
  inserts: Array<{ startMs: number; endMs: number }>;
};

/** Installs the observers; `window.__submitBench()` returns SubmitObservations. */
export const OBSERVE_SUBMIT_SCRIPT = `(() => {
  const seen = { usableMs: null, tapMs: null, toastMs: null, toastFrameMs: null, toastText: null };
  addEventListener("click", (event) => {
    const target = event.target;
    if (seen.tapMs === null && target instanceof Element && target.closest("button[type=submit]")) seen.tapMs = event.timeStamp;
  }, true);
  const check = () => {
    const button = document.querySelector("#meeting-form button[type=submit]");
    if (seen.usableMs === null && button && !button.disabled) seen.usableMs = performance.now();
    if (seen.toastMs === null) {
      const toast = document.querySelector(".Toastify__toast");
      if (toast && toast.textContent) {
        seen.toastMs = performance.now();
        seen.toastText = toast.textContent;
        requestAnimationFrame(() => { seen.toastFrameMs = performance.now(); });
      }
    }
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["disabled", "class"] });
  window.__submitBench = () => {
    const paint = performance.getEntriesByName("first-contentful-paint")[0];
    const inserts = performance.getEntriesByType("resource")
      .filter((entry) => /\\/rest\\/v1\\/contacts(\\?|$)/.test(entry.name))
      .map((entry) => ({ startMs: entry.startTime, endMs: entry.responseEnd }));
    return { ...seen, firstPaintMs: paint ? paint.startTime : null, inserts };
  };
})();`;
