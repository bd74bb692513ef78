/** The meeting form's toasts in the built page: announced, about 4 s on screen, never more than 3 at once. */
import { content } from "../support/content";
import { expect, test } from "../support/fixtures";
import { fillMeetingForm, meetingForm, uniqueEmail } from "../support/form";

const { failureToast } = content.meeting;

test.beforeEach(async ({ page }) => {
  await page.goto("/");
  await meetingForm(page).section.scrollIntoViewIfNeeded();
});

test.describe("toasts", () => {
  test("a toast is announced, vanishes after about 4 s, and never more than 3 show at once", async ({
    page,
    backend,
    diagnostics,
  }) => {
    diagnostics.allowErrors(/Meeting request/, /Failed to load resource/);
    // Count the toasts on screen after every change to the page.
    await page.evaluate(() => {
      const state = { max: 0, shown: 0 };
      (window as unknown as { __toastMax: typeof state }).__toastMax = state;
      new MutationObserver((mutations) => {
        state.max = Math.max(state.max, document.querySelectorAll("[role=alert]").length);
        for (const mutation of mutations) {
          for (const node of mutation.addedNodes) {
            if (node instanceof Element)
              state.shown +=
                (node.matches("[role=alert]") ? 1 : 0) +
                node.querySelectorAll("[role=alert]").length;
          }
        }
      }).observe(document.body, { subtree: true, childList: true });
    });
    await page.route(`${backend.url}/rest/v1/contacts*`, (route) =>
      route.request().method() === "POST" ? route.abort("connectionrefused") : route.continue(),
    );
    const form = meetingForm(page);
    await fillMeetingForm(page, {
      fullName: "Toast Tester",
      organization: "Metro Transit",
      email: uniqueEmail("toast"),
    });

    const failures = page.getByRole("alert").filter({ hasText: failureToast.title });
    await form.submit.click();
    await expect(failures).toHaveCount(1);
    const firstShown = Date.now();
    // The toast region is a live region, so screen readers announce each toast.
    await expect(page.locator("[aria-live]").filter({ has: failures.first() })).toHaveCount(1);

    for (let attempt = 2; attempt <= 5; attempt++) {
      await expect(form.submit).toBeEnabled();
      await form.submit.click();
    }
    await expect.poll(() => failures.count()).toBe(3);
    await page.waitForTimeout(500);
    expect(await failures.count()).toBe(3);

    // Everything clears: each toast about 4 s after it showed, the two queued ones after them.
    // (Between the first three leaving and the queued two arriving the count is briefly 0.)
    const toastStats = () =>
      page.evaluate(
        () => (window as unknown as { __toastMax: { max: number; shown: number } }).__toastMax,
      );
    await expect
      .poll(async () => (await toastStats()).shown, { timeout: 20_000 })
      .toBeGreaterThanOrEqual(5);
    await expect(failures).toHaveCount(0, { timeout: 20_000 });
    expect((await toastStats()).max).toBe(3);

    // One toast alone: on screen for about 4 s.
    await form.submit.click();
    await expect(failures).toHaveCount(1);
    const shown = Date.now();
    await expect(failures).toHaveCount(0, { timeout: 10_000 });
    const onScreen = (Date.now() - shown) / 1000;
    expect(onScreen).toBeGreaterThan(3.2);
    expect(onScreen).toBeLessThan(6);
    expect(firstShown).toBeLessThan(shown);
  });
});
