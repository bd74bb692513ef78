import { expect, test } from "../support/fixtures";

// Pictures of the page for a person to look at: `npm run screenshots` (tools/screenshots.ts).

test("no horizontal scrolling at any width from 360 to 1440 px", async ({ page }) => {
  await page.goto("/");
  await page.waitForLoadState("networkidle");
  const overflowing: string[] = [];
  for (const width of [360, 390, 414, 768, 1024, 1040, 1280, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    if (scrollWidth > width) {
      const culprits = await page.evaluate(
        (limit) =>
          Array.from(document.querySelectorAll("body *"))
            .filter((element) => element.getBoundingClientRect().right > limit + 1)
            .slice(0, 3)
            .map(
              (element) =>
                `<${element.tagName.toLowerCase()}> "${(element.textContent ?? "").trim().slice(0, 40)}" in .${String(element.parentElement?.className ?? "")}`,
            ),
        width,
      );
      overflowing.push(`${width} px: page is ${scrollWidth} px wide (${culprits.join(", ")})`);
    }
  }
  expect(overflowing).toEqual([]);
});
