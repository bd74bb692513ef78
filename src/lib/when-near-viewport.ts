/**
 * Calls `start` once, when `element` comes within `margin` of the viewport (an IntersectionObserver
 * root margin, e.g. "50% 0px": half a screen before it shows), or never where the browser has no
 * IntersectionObserver. The observer's first report, made at once, counts only if the element is
 * already that near. Returns a function that stops waiting.
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
