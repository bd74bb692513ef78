import { startTransition } from "react";
import type { ReactElement } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";

/**
 * Hydrates the server-rendered page inside a transition. React then hydrates in short slices
 * and yields to the browser between them, instead of one long task that blocks a tap or a
 * scroll while a phone's CPU works through the whole page (Total Blocking Time).
 * The page is already fully visible from the HTML, so nothing waits on hydration but event
 * handlers, and React hydrates the part a visitor interacts with first.
 *
 * `gatsby develop` (and any page without server-rendered markup) gets an empty container:
 * there a normal client render is the right thing, as in Gatsby's default.
 */
export function replaceHydrateFunction() {
  return (element: ReactElement, container: Element) => {
    if (container.children.length === 0) {
      const root = createRoot(container);
      root.render(element);
      return () => root.unmount();
    }
    let unmount = () => {};
    startTransition(() => {
      const root = hydrateRoot(container, element);
      unmount = () => root.unmount();
    });
    return () => unmount();
  };
}
