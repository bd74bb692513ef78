/** When the page's scripts do their work: as the visitor nears it, or after the frame that answers them. */

/**
 * Calls `start` once, when `element` comes within `margin` of the viewport (an IntersectionObserver
 * root margin), or never where the browser has no IntersectionObserver. Returns a function that
 * stops waiting.
 */
export function whenNearViewport(element: Element, start: () => void, margin: string): () => void {
  if (typeof IntersectionObserver !== "function") return () => undefined;
  const observer = new IntersectionObserver(
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
 * did is answered on screen first: INP counts only up to that frame.
 */
export function afterNextPaint(work: () => void): void {
  requestAnimationFrame(() => setTimeout(work, 0));
}
