/**
 * Accessibility in Chromium: axe-core on every page a visitor can reach (the toasts on screen:
 * form-submit.spec.ts and form-failures.spec.ts), and a visible focus at every Tab stop.
 */
import { axeViolations } from "../support/axe";
import { expect, test } from "../support/fixtures";
import { readWholePage } from "../support/page";

const PAGES = [
  { what: "landing page at 1280 px", path: "/", width: 1280 },
  { what: "landing page at 390 px", path: "/", width: 390 },
  { what: "not-found page", path: "/some/missing/path", width: 1280 },
];

for (const { what, path, width } of PAGES) {
  test(`${what}: no axe violations`, async ({ page, diagnostics }) => {
    if (path !== "/") diagnostics.allowErrors(/status of 404/, /404 Error/);
    await page.setViewportSize({ width, height: 900 });
    await page.goto(path);
    await readWholePage(page);
    expect(await axeViolations(page)).toEqual([]);
  });
}

test("every Tab stop on the landing page shows where focus is", async ({ page }) => {
  await page.goto("/");
  const problems: string[] = [];
  const seen = new Set<string>();
  for (let stop = 0; stop < 120; stop++) {
    await page.keyboard.press("Tab");
    const focused = await page.evaluate(async () => {
      // The page scrolls smoothly to the focused element: wait until it rests.
      for (let frame = 0, same = 0, last = -1; frame < 120 && same < 3; frame++) {
        await new Promise((resolve) => requestAnimationFrame(resolve));
        same = window.scrollY === last ? same + 1 : 0;
        last = window.scrollY;
      }
      const element = document.activeElement as HTMLElement | null;
      if (!element || element === document.body) return null;
      const style = getComputedStyle(element);
      const rect = element.getBoundingClientRect();
      const label = element.getAttribute("aria-label") ?? element.textContent ?? "";
      const name = `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ""} "${label.trim().slice(0, 40)}"`;
      const onScreen =
        rect.width > 0 && rect.height > 0 && rect.bottom > 0 && rect.top < window.innerHeight;
      // WCAG 2.4.11: not hidden behind something else (a sticky header, a toast).
      const atCentre = document.elementFromPoint(
        rect.left + rect.width / 2,
        rect.top + rect.height / 2,
      );
      return {
        name,
        key: `${name}@${Math.round(rect.top + window.scrollY)}:${Math.round(rect.left)}`,
        visibleFocus:
          element.matches(":focus-visible") &&
          ((style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2) ||
            (style.boxShadow !== "none" && style.boxShadow !== "")),
        onScreen,
        obscured:
          onScreen &&
          atCentre !== null &&
          !element.contains(atCentre) &&
          !atCentre.contains(element) &&
          !(element as HTMLInputElement).labels?.[0]?.contains(atCentre),
      };
    });
    if (!focused || seen.has(focused.key)) break; // wrapped around
    seen.add(focused.key);
    if (!focused.visibleFocus) problems.push(`${focused.name}: no visible focus indicator`);
    if (!focused.onScreen) problems.push(`${focused.name}: focused but not on screen`);
    if (focused.obscured) problems.push(`${focused.name}: focused but covered by another element`);
  }
  expect(seen.size).toBeGreaterThan(20);
  expect(problems).toEqual([]);
});
