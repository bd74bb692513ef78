/** How long the counting code waits for an idle moment before it loads anyway. */
const IDLE_TIMEOUT_MS = 2000;

const loadCounting = () => import(/* webpackChunkName: "site-analytics" */ "./count-visit");

/**
 * Counts the visit without a tracker (docs/analytics.md), at no cost to the start-up script: the
 * counting code is a chunk of its own, loaded when the browser is first idle. Until then this only
 * remembers the clicks and focus events it sees, which the chunk counts as if it had been there
 * (a call to action tapped at once still counts). A chunk that cannot load counts nothing.
 */
export function startSiteAnalytics(doc: Document = document): void {
  const win = doc.defaultView ?? window;
  const earlier: Event[] = [];
  const remember = (event: Event) => earlier.push(event);
  const stopRemembering = () => {
    doc.removeEventListener("click", remember);
    doc.removeEventListener("focusin", remember);
  };
  doc.addEventListener("click", remember);
  doc.addEventListener("focusin", remember);
  const load = () =>
    loadCounting().then(
      ({ countVisit }) => {
        stopRemembering();
        countVisit(doc, earlier);
      },
      stopRemembering,
    );
  if (win.requestIdleCallback) win.requestIdleCallback(load, { timeout: IDLE_TIMEOUT_MS });
  else win.setTimeout(load, 1);
}
