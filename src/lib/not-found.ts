/** The attribute that marks the not-found page's content (src/pages/404.tsx), so the page's start-up script knows which page it is on. */
export const NOT_FOUND_ATTRIBUTE = "data-not-found-page";

/** What the not-found page tells the console: the path the visitor asked for (spec: the not-found page). */
export function logMissingPath(
  pathname: string,
  log: (...parts: unknown[]) => void = console.error,
): void {
  log("404 Error: User attempted to access non-existent route:", pathname);
}
