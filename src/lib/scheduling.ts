/**
 * When the page's scripts do their work: when the visitor is about to need it, when the browser is
 * idle, or after the frame that answers what the visitor just did.
 */

const REACHED_EVENTS = ["focusin", "pointerdown"] as const;

/**
 * Calls `start` once: when the browser is first idle after the load (within 2 s), or as soon as the visitor
 * focuses or presses anything inside `area` (at once if focus is already there: a call to action
 * followed before the script arrived), whichever comes first. The listeners are passive and only
 * start work, so the focus or press itself is never delayed. Returns a function that cancels it.
 */
export function whenNeeded(area: Element, start: () => void, win: Window = window): () => void {
  let cancelIdle = () => {};
  const run = () => {
    cancel();
    start();
  };
  const afterLoad = () => {
    if (win.requestIdleCallback) {
      const handle = win.requestIdleCallback(run, { timeout: 2000 });
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

  if (area.contains(win.document.activeElement)) {
    start();
    return () => undefined;
  }
  for (const type of REACHED_EVENTS)
    area.addEventListener(type, run, { capture: true, passive: true });
  if (win.document.readyState === "complete") afterLoad();
  else win.addEventListener("load", afterLoad, { once: true });
  return cancel;
}

/**
 * Calls `start` once, when `element` comes within `margin` of the viewport (an IntersectionObserver
 * root margin), or never where the browser has no IntersectionObserver. Returns a function that
 * stops waiting.
 */
export function whenNearViewport(
  element: Element,
  start: () => void,
  margin: string,
  win: Window & typeof globalThis = window,
): () => void {
  if (!("IntersectionObserver" in win)) return () => undefined;
  const observer = new win.IntersectionObserver(
    (entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return;
      observer.disconnect();
      start();
    },
    { rootMargin: margin },
  );
  observer.observe(element);
  return () => observer.disconnect();
}

/**
 * Runs `work` in a task after the browser has painted the next frame, so that what the visitor just
 * did is answered on screen first: INP counts only up to that frame. Returns a function that
 * cancels the work if it has not run yet.
 */
export function afterNextPaint(work: () => void, win: Window = window): () => void {
  let timer: number | undefined;
  const frame = win.requestAnimationFrame(() => {
    timer = win.setTimeout(work, 0);
  });
  return () => {
    win.cancelAnimationFrame(frame);
    if (timer !== undefined) win.clearTimeout(timer);
  };
}
