/** The events that show a visitor is about to use a part of the page. */
const REACHED_EVENTS = ["focusin", "pointerdown"] as const;

type WhenNeededOptions = {
  /** Also start once the page has loaded and the browser is idle (default true). */
  idle?: boolean;
  /** The longest wait for an idle moment after the load, in ms. */
  idleTimeoutMs?: number;
  /** Start at once when focus is already inside the area (default true; false waits for the next focus or press). */
  ifAlreadyThere?: boolean;
};

/**
 * Calls `start` once: when the browser is first idle after the page has loaded, or as soon as the
 * visitor focuses or presses anything inside `area` (at once if focus is already there), whichever
 * comes first. The listeners are passive and only start work, so the focus or press itself is never
 * delayed.
 * Returns a function that cancels whatever has not happened yet.
 */
export function whenNeeded(
  area: Element,
  start: () => void,
  { idle = true, idleTimeoutMs = 2000, ifAlreadyThere = true }: WhenNeededOptions = {},
  win: Window = window,
): () => void {
  let cancelIdle = () => {};
  const run = () => {
    cancel();
    start();
  };
  const afterLoad = () => {
    if (win.requestIdleCallback) {
      const handle = win.requestIdleCallback(run, { timeout: idleTimeoutMs });
      cancelIdle = () => win.cancelIdleCallback(handle);
    } else {
      const handle = win.setTimeout(run, 1);
      cancelIdle = () => win.clearTimeout(handle);
    }
  };
  // Every way `run` can be reached is removed here, so it runs at most once.
  function cancel() {
    for (const type of REACHED_EVENTS) area.removeEventListener(type, run, true);
    win.removeEventListener("load", afterLoad);
    cancelIdle();
  }

  // A visitor can get there before this script arrives (a call to action is a plain link until
  // then, and still moves focus into its section): then there is nothing to wait for.
  if (ifAlreadyThere && area.contains(win.document.activeElement)) {
    start();
    return () => undefined;
  }
  for (const type of REACHED_EVENTS)
    area.addEventListener(type, run, { capture: true, passive: true });
  if (idle) {
    if (win.document.readyState === "complete") afterLoad();
    else win.addEventListener("load", afterLoad, { once: true });
  }
  return cancel;
}
