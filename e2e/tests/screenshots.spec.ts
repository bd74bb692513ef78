import path from "node:path";
import { PROJECT_ROOT } from "../../tools/lib/test-build";
import { expect, test } from "../support/fixtures";

/** Written on every run (screenshots/ is git-ignored) so a person can look at the page. */
const SCREENSHOTS_DIR = path.join(PROJECT_ROOT, "screenshots");

for (const width of [390, 1280]) {
  test(`screenshot of / at ${width} px (full page)`, async ({ page }) => {
    await page.setViewportSize({ width, height: width < 600 ? 844 : 800 });
    await page.goto("/");
    try {
      await page.waitForLoadState("networkidle"); // hydrated: lazy images get their sources
      // Bring every lazy image in and wait until it has loaded, then back to the top.
      for (const image of await page.locator("img").all()) {
        await image.scrollIntoViewIfNeeded();
        const alt = await image.getAttribute("alt");
        await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { message: `image "${alt}" loads` }).toBe(true);
      }
      await page.evaluate(() => window.scrollTo(0, 0));
    } finally {
      // Written even when something above failed: the picture helps find out why.
      await page.screenshot({ path: path.join(SCREENSHOTS_DIR, `home-${width}.png`), fullPage: true });
    }
    // No horizontal scrolling at any width the site supports.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  });
}

test("screenshot of the not-found page at 390 px", async ({ page, diagnostics }) => {
  diagnostics.allowErrors(/status of 404/, /404 Error/);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/some/missing/path");
  await page.screenshot({ path: path.join(SCREENSHOTS_DIR, "not-found-390.png"), fullPage: true });
});

test("no horizontal scrolling at any width from 360 to 1440 px", async ({ page }) => {
  await page.goto("/");
  await page.waitForLoadState("networkidle");
  const overflowing: string[] = [];
  for (const width of [360, 390, 414, 768, 1024, 1040, 1280, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    if (scrollWidth > width) {
      const culprits = await page.evaluate((limit) =>
        Array.from(document.querySelectorAll("body *"))
          .filter((element) => element.getBoundingClientRect().right > limit + 1)
          .slice(0, 3)
          .map((element) => `<${element.tagName.toLowerCase()}> "${(element.textContent ?? "").trim().slice(0, 40)}" in .${String(element.parentElement?.className ?? "")}`),
      width);
      overflowing.push(`${width} px: page is ${scrollWidth} px wide (${culprits.join(", ")})`);
    }
  }
  expect(overflowing).toEqual([]);
});
