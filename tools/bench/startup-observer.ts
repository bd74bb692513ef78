/** One interaction as INP sees it: its longest Event Timing entry. */
export type ObservedInteraction = {
  type: string;
  target: string;
  startMs: number;
  durationMs: number;
  inputDelayMs: number;
  processingMs: number;
};

export type StartupObservations = {
  interactions: ObservedInteraction[];
  firstPaintMs: number | null;
  /** When the form's submit button was first enabled (the form's script has run), if ever. */
  formReadyMs: number | null;
  longTasks: Array<{ startMs: number; durationMs: number }>;
};

/**
 * Runs in the page before any of its own scripts (Playwright's addInitScript) and keeps what it
 * observes in `window.__startup`. Plain JavaScript in a string: it must not depend on how this
 * file is compiled.
 */
export const OBSERVE_STARTUP_SCRIPT = `(() => {
  const state = { interactions: [], firstPaintMs: null, formReadyMs: null, longTasks: [] };
  window.__startup = state;
  const describe = (node) => {
    if (!node || !node.nodeName) return "a node no longer in the page";
    if (node.id) return "#" + node.id;
    const name = node.getAttribute && node.getAttribute("name");
    if (name) return node.nodeName.toLowerCase() + "[name=" + name + "]";
    const href = node.getAttribute && node.getAttribute("href");
    return node.nodeName.toLowerCase() + (href ? "[href=" + href + "]" : "");
  };
  const byInteraction = new Map();
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (!entry.interactionId) continue;
      const known = byInteraction.get(entry.interactionId);
      if (known && known.durationMs >= entry.duration) continue;
      byInteraction.set(entry.interactionId, {
        type: entry.name,
        target: describe(entry.target),
        startMs: entry.startTime,
        durationMs: entry.duration,
        inputDelayMs: entry.processingStart - entry.startTime,
        processingMs: entry.processingEnd - entry.processingStart,
      });
    }
    state.interactions = [...byInteraction.values()].sort((a, b) => a.startMs - b.startMs);
  }).observe({ type: "event", durationThreshold: 16, buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.name === "first-contentful-paint") state.firstPaintMs = entry.startTime;
    }
  }).observe({ type: "paint", buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) state.longTasks.push({ startMs: entry.startTime, durationMs: entry.duration });
  }).observe({ type: "longtask", buffered: true });
  const formReady = new MutationObserver(() => {
    const button = document.querySelector("form button[type=submit]");
    if (button && !button.disabled) {
      state.formReadyMs = performance.now();
      formReady.disconnect();
    }
  });
  formReady.observe(document, { attributes: true, attributeFilter: ["disabled"], subtree: true });
})();`;
