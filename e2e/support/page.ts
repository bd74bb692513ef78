/** Steps on the built page that several specs share: a slow network for its scripts, and reading it to the end. */
import type { Page } from "@playwright/test";
import { PAGE_BOOT_MARK } from "../../src/boot/page-boot";

/**
 * Holds every request of the page whose URL matches `url` until `release()` is called, as a slow
 * network would. `scriptRequests` lists the ones the page made as a `<script>`: a prefetch of the
 * same file (build-time/page-scripts.ts) is held too, but not listed.
 */
export async function holdScripts(
  page: Page,
  url: RegExp,
): Promise<{ release: () => void; scriptRequests: string[] }> {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const scriptRequests: string[] = [];
  await page.route(url, async (route) => {
    if (route.request().resourceType() === "script") scriptRequests.push(route.request().url());
    await held;
    await route.continue();
  });
  return { release, scriptRequests };
}

/** Resolves once the page's start-up script has run (src/boot/page-boot.ts leaves a performance mark). */
export async function pageBootHasRun(page: Page): Promise<void> {
  await page.waitForFunction(
    (mark) => performance.getEntriesByName(mark).length > 0,
    PAGE_BOOT_MARK,
  );
}

/** Scrolls through the whole page as a reader would, so lazy content reaches its final state. */
export async function readWholePage(page: Page): Promise<void> {
  await page.waitForLoadState("networkidle"); // hydrated: lazy images get their sources
  await page.evaluate(async () => {
    for (let y = 0; y < document.documentElement.scrollHeight; y += window.innerHeight / 2) {
      window.scrollTo(0, y);
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 30)));
    }
    window.scrollTo(0, 0);
  });
  await page.waitForLoadState("networkidle");
}
