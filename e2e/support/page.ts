/** Steps on the built page that several specs share: a slow network, and reading the page to the end. */
import type { Page, Request } from "@playwright/test";
import { PAGE_BOOT_MARK } from "../../src/boot/page-boot";

/**
 * Holds the page's requests to `url` (those `hold` picks; the rest go on) until `release()` is
 * called, as a slow network would. `held` lists them; the held ones then go on unchanged.
 */
export async function holdRequests(
  page: Page,
  url: string | RegExp,
  hold: (request: Request) => boolean = () => true,
): Promise<{ release: () => void; held: Request[] }> {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const held: Request[] = [];
  await page.route(url, async (route) => {
    if (!hold(route.request())) return route.continue();
    held.push(route.request());
    await released;
    await route.continue();
  });
  return { release, held };
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
