/**
 * The meeting form when its request fails: the backend down, an error answer, no answer at all.
 * The visitor gets the failure toast and keeps every value, the console says what is wrong, and
 * the same values go through once the backend answers again; axe finds nothing with the toast on
 * screen. Then the toasts themselves.
 */
import type { Page } from "@playwright/test";
import { axeViolations } from "../support/axe";
import { content, escapeRegExp } from "../support/content";
import { BACKEND_URL, expect, test, type Backend } from "../support/fixtures";
import {
  answerInserts,
  answers,
  everyAnswer,
  expectStored,
  fillMeetingForm,
  formShows,
  openForm,
  submitAndSucceed,
  toast,
} from "../support/form";

const { form: words, failureToast } = content.meeting;

type Failure = {
  what: string;
  breakIt(page: Page, backend: Backend): Promise<void>;
  /** What the console must say. */
  console: RegExp;
  /** The seconds after which the form gives up, when the backend never answers. */
  givesUpAfter?: [number, number];
};

// The 5xx console message: src/lib/submit-meeting-request.node-test.ts; the 401's: local-backend/page-submit.test.ts.
const FAILURES: Failure[] = [
  {
    what: "the backend is down",
    breakIt: (_page, backend) => backend.stop(),
    console: new RegExp(`not sent: ${escapeRegExp(BACKEND_URL)} could not be reached`),
  },
  {
    what: "no answer",
    breakIt: (page) => answerInserts(page, () => undefined),
    console: /did not answer/,
    givesUpAfter: [12, 19],
  },
];

test.describe("failure toast, every value kept, the console says what is wrong; later the same values go through:", () => {
  for (const failure of FAILURES) {
    test(failure.what, async ({ page, backend, diagnostics }) => {
      test.setTimeout(45_000);
      diagnostics.allowErrors(/ERR_CONNECTION_REFUSED|Failed to load resource/, /Meeting request/);
      const form = await openForm(page);
      const input = everyAnswer("failure");
      await fillMeetingForm(page, input);
      const before = await formShows(page);
      await failure.breakIt(page, backend);

      await form.submit.click();
      const started = Date.now();
      if (failure.givesUpAfter) await expect(form.submit).toHaveText(words.submittingLabel);
      const failed = toast(page, failureToast.title);
      await expect(failed).toContainText(failureToast.text, { timeout: 25_000 });
      if (failure.givesUpAfter) {
        const [least, most] = failure.givesUpAfter;
        expect((Date.now() - started) / 1000).toBeGreaterThan(least);
        expect((Date.now() - started) / 1000).toBeLessThan(most);
      }
      await expect(failed).toHaveCount(1);
      await expect(failed).toHaveClass(/Toastify__toast--error/); // the destructive style
      await page.waitForTimeout(800); // the entrance animation done: axe checks final colours
      expect(await axeViolations(page)).toEqual([]);
      expect(await formShows(page)).toEqual(before);
      await expect(form.submit).toBeEnabled();
      expect(
        diagnostics.errors.filter((line) => failure.console.test(line)),
        diagnostics.errors.join("\n"),
      ).not.toHaveLength(0);

      await backend.start();
      expect(await backend.rows()).toHaveLength(0);
      await page.unrouteAll();
      await submitAndSucceed(page);
      await expectStored(backend, input);
    });
  }
});

test("a toast is announced, vanishes after about 4 s, and never more than 3 show at once", async ({
  page,
  diagnostics,
}) => {
  diagnostics.allowErrors(/Meeting request/, /Failed to load resource/);
  const form = await openForm(page);
  // Count the toasts on screen after every change to the page, and every toast shown.
  await page.evaluate(() => {
    const stats = { max: 0, shown: 0 };
    Object.assign(window, { __toastStats: stats });
    new MutationObserver((mutations) => {
      stats.max = Math.max(stats.max, document.querySelectorAll("[role=alert]").length);
      for (const node of mutations.flatMap((mutation) => [...mutation.addedNodes])) {
        if (node instanceof Element)
          stats.shown +=
            Number(node.matches("[role=alert]")) + node.querySelectorAll("[role=alert]").length;
      }
    }).observe(document.body, { subtree: true, childList: true });
  });
  const toastStats = () =>
    page.evaluate(
      () => (window as unknown as { __toastStats: { max: number; shown: number } }).__toastStats,
    );
  await answerInserts(page, (route) => route.abort("connectionrefused"));
  await fillMeetingForm(page, answers("toast"));

  const failures = toast(page, failureToast.title);
  await form.submit.click();
  await expect(failures).toHaveCount(1);
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
  expect((Date.now() - shown) / 1000).toBeGreaterThan(3.2);
  expect((Date.now() - shown) / 1000).toBeLessThan(6);
});
