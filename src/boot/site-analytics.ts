import { FORM_OUTCOME_EVENT } from "../lib/site-analytics/events";

const REMEMBERED = ["click", "focusin", FORM_OUTCOME_EVENT];

/** How long the counting code waits for an idle moment before it loads anyway. */
const IDLE_TIMEOUT_MS = 2000;

const loadCounting = () => import(/* webpackChunkName: "site-analytics" */ "./count-visit");

/**
 * Counts the visit without a tracker (docs/analytics.md), at no cost to the start-up script: the
 * counting code is a chunk of its own, loaded when the browser is first idle. Until then this only
 * remembers the clicks, focus events and form outcomes it sees, which the chunk counts as if it had been there
 * (a call to action tapped at once still counts). A chunk that cannot load counts nothing.
 */
export function startSiteAnalytics(doc: Document = document): void {
  const win = doc.defaultView ?? window;
  const earlier: Event[] = [];
  const remember = (event: Event) => earlier.push(event);
  const stopRemembering = () =>
    REMEMBERED.forEach((type) => doc.removeEventListener(type, remember));
  REMEMBERED.forEach((type) => doc.addEventListener(type, remember));
  const load = () =>
    loadCounting().then(({ countVisit }) => {
      stopRemembering();
      countVisit(doc, earlier);
    }, stopRemembering);
  if (win.requestIdleCallback) win.requestIdleCallback(load, { timeout: IDLE_TIMEOUT_MS });
  else win.setTimeout(load, 1);
}
