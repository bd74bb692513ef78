/**
 * Real visitors: people using the built page in Chromium from 127.0.0.1, each in a fresh browser
 * context (no cache, no proof carried over): load, focus the form (the page fetches its proof's
 * challenge and solves it meanwhile), type at a person's pace, tap, wait for the success toast,
 * stay a moment (a proof not ready at the tap is confirmed after the toast).
 */
import type { Browser, Request } from "playwright-core";

import { meeting, type VisitorAnswers } from "./texts";

export interface RealSubmission {
  index: number;
  email: string;
  /** Date.now() at the tap, and when the success toast showed (undefined: it never did). */
  tappedAt: number;
  toastAt: number | undefined;
  /** Status of each insert the page sent (0: no answer). */
  insertStatuses: number[];
  error?: string;
}

/** How long the visitor stays after the toast: the page confirms a pending ticket then. */
const STAY_AFTER_TOAST_MS = 3_000;

export async function submitThroughPage(
  browser: Browser,
  siteUrl: string,
  index: number,
  answers: VisitorAnswers,
): Promise<RealSubmission> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const submission: RealSubmission = {
    index,
    email: answers.email,
    tappedAt: 0,
    toastAt: undefined,
    insertStatuses: [],
  };
  const isInsert = (request: Request): boolean =>
    request.method() === "POST" &&
    new URL(request.url()).pathname === "/rest/v1/contacts" &&
    (request.postData() ?? "").includes(answers.email);
  page.on("response", (response) => {
    if (isInsert(response.request())) submission.insertStatuses.push(response.status());
  });
  page.on("requestfailed", (request) => {
    if (isInsert(request)) submission.insertStatuses.push(0);
  });
  const words = meeting.form;
  const typing: [label: string, text: string, delay: number][] = [
    [words.fullNameLabel, answers.fullName, 40],
    [words.organizationLabel, answers.organization, 40],
    [words.emailLabel, answers.email, 20],
    [words.fleetSizeLabel, answers.fleetSize, 40],
    [words.challengesLabel, answers.challenges, 15],
  ];
  try {
    await page.goto(`${siteUrl}/#contact-form`);
    const form = page.locator("#contact-form");
    await form.getByLabel(words.fullNameLabel, { exact: true }).click();
    for (const [label, text, delay] of typing)
      if (text) await form.getByLabel(label, { exact: true }).pressSequentially(text, { delay });
    submission.tappedAt = Date.now();
    await form.getByRole("button", { name: words.submitLabel }).click();
    submission.toastAt = await page
      .getByRole("alert")
      .filter({ hasText: meeting.successToast.title })
      .waitFor({ timeout: 30_000 })
      .then(
        () => Date.now(),
        () => undefined,
      );
    await page.waitForTimeout(STAY_AFTER_TOAST_MS);
  } catch (error) {
    submission.error = error instanceof Error ? error.message.split("\n")[0] : String(error);
  } finally {
    await context.close();
  }
  return submission;
}

/**
 * `count` visitors: one after another (each starts when the previous one has left), or with
 * `everyMs`, the `index`-th starting `everyMs` × index after the first (they may overlap).
 */
export async function visitors(
  count: number,
  everyMs: number | undefined,
  visit: (index: number) => Promise<RealSubmission>,
): Promise<RealSubmission[]> {
  const indexes = Array.from({ length: count }, (_, index) => index);
  if (everyMs === undefined) {
    const done: RealSubmission[] = [];
    for (const index of indexes) done.push(await visit(index));
    return done;
  }
  const start = Date.now();
  return Promise.all(
    indexes.map(async (index) => {
      await new Promise((resolve) =>
        setTimeout(resolve, Math.max(0, start + index * everyMs - Date.now())),
      );
      return visit(index);
    }),
  );
}
