import type { Page } from "@playwright/test";
import { axeViolations, describeViolations } from "../support/axe";
import { content } from "../support/content";
import { expect, test } from "../support/fixtures";
import { fillMeetingForm, meetingForm, toast, uniqueEmail } from "../support/form";

const { successToast, failureToast } = content.meeting;

/** Scrolls through the page so lazy content is in its final state before axe looks. */
async function settle(page: Page) {
  await page.waitForLoadState("networkidle"); // hydrated
  await page.evaluate(async () => {
    for (let y = 0; y < document.documentElement.scrollHeight; y += window.innerHeight) {
      window.scrollTo(0, y);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    window.scrollTo(0, 0);
  });
  await page.waitForLoadState("networkidle");
}

async function waitForScrollToSettle(page: Page) {
  await page.evaluate(async () => {
    let last = -1;
    let same = 0;
    for (let frame = 0; frame < 120 && same < 3; frame++) {
      await new Promise((resolve) => requestAnimationFrame(resolve));
      same = window.scrollY === last ? same + 1 : 0;
      last = window.scrollY;
    }
  });
}

test.describe("accessibility (axe-core: WCAG 2.0/2.1/2.2 A and AA, best practices)", () => {
  for (const width of [1280, 390]) {
    test(`landing page at ${width} px: no violations`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto("/");
      await settle(page);
      const violations = await axeViolations(page);
      expect(describeViolations(violations)).toEqual([]);
    });
  }

  test("landing page with a success and a failure toast on screen: no violations", async ({
    page,
    backend,
    diagnostics,
  }) => {
    diagnostics.allowErrors(/Meeting request/, /Failed to load resource/);
    await page.goto("/");
    await fillMeetingForm(page, {
      fullName: "Ada Brooks",
      organization: "Lakeshore Transit",
      email: uniqueEmail("axe"),
    });
    await meetingForm(page).submit.click();
    await expect(toast(page, successToast.title)).toBeVisible();
    await page.route(`${backend.url}/rest/v1/contacts*`, (route) =>
      route.request().method() === "POST" ? route.abort("connectionrefused") : route.continue(),
    );
    await fillMeetingForm(page, {
      fullName: "Ada Brooks",
      organization: "Lakeshore Transit",
      email: uniqueEmail("axe"),
    });
    await meetingForm(page).submit.click();
    await expect(toast(page, failureToast.title)).toBeVisible();
    await page.waitForTimeout(800); // toasts' entrance animation done: axe checks final colours
    const violations = await axeViolations(page);
    expect(describeViolations(violations)).toEqual([]);
  });

  test("not-found page: no violations", async ({ page, diagnostics }) => {
    diagnostics.allowErrors(/status of 404/, /404 Error/);
    await page.goto("/some/missing/path");
    await settle(page);
    expect(describeViolations(await axeViolations(page))).toEqual([]);
  });

  test("every Tab stop on the landing page shows where focus is", async ({ page }) => {
    await page.goto("/");
    const problems: string[] = [];
    const seen = new Set<string>();
    for (let stop = 0; stop < 120; stop++) {
      await page.keyboard.press("Tab");
      await waitForScrollToSettle(page); // the page scrolls smoothly to the focused element
      const info = await page.evaluate(() => {
        const element = document.activeElement as HTMLElement | null;
        if (!element || element === document.body) return null;
        const style = getComputedStyle(element);
        const rect = element.getBoundingClientRect();
        const outline = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2;
        const ring = style.boxShadow !== "none" && style.boxShadow !== "";
        const name = `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ""} "${(element.getAttribute("aria-label") ?? element.textContent ?? (element as HTMLInputElement).name ?? "").trim().slice(0, 40)}"`;
        const key = `${name}@${Math.round(rect.top + window.scrollY)}:${Math.round(rect.left)}`;
        const onScreen =
          rect.width > 0 && rect.height > 0 && rect.bottom > 0 && rect.top < window.innerHeight;
        // WCAG 2.4.11: not hidden behind something else (a sticky header, a toast).
        const atCentre = document.elementFromPoint(
          rect.left + rect.width / 2,
          rect.top + rect.height / 2,
        );
        const obscured =
          onScreen &&
          atCentre !== null &&
          !element.contains(atCentre) &&
          !atCentre.contains(element) &&
          !(element as HTMLInputElement).labels?.[0]?.contains(atCentre);
        return {
          name,
          key,
          visibleFocus: outline || ring,
          onScreen,
          obscured,
          focusVisible: element.matches(":focus-visible"),
        };
      });
      if (!info) break;
      if (seen.has(info.key)) break; // wrapped around
      seen.add(info.key);
      if (!info.focusVisible || !info.visibleFocus)
        problems.push(`${info.name}: no visible focus indicator`);
      if (!info.onScreen) problems.push(`${info.name}: focused but not on screen`);
      if (info.obscured) problems.push(`${info.name}: focused but covered by another element`);
    }
    expect(seen.size).toBeGreaterThan(20);
    expect(problems).toEqual([]);
  });
});
