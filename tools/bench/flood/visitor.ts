/**
 * Real visitors: people using the built page in Chromium from 127.0.0.1, each in a fresh browser
 * context (no cache, no proof carried over): load, focus the form (the page fetches its proof's
 * challenge and solves it meanwhile), type at a person's pace, tap, wait for the success toast,
 * stay a moment (a proof not ready at the tap is confirmed after the toast).
 */
import type { Browser, Request } from "playwright-core";

import { FORM_PROOF_HEADER } from "../../../src/lib/form-proof";
import { meeting } from "./page-words";
import type { VisitorAnswers } from "./texts";

export interface RealSubmission {
  index: number;
  email: string;
  /** Date.now() at the tap, and when the success toast showed (undefined: it never did). */
  tappedAt: number;
  toastAt: number | undefined;
  /** Status of each insert the page sent (the form may be sent again after a failure). */
  insertStatuses: number[];
  /** What x-form-proof carried: the solved proof, or a pending ticket. */
  proof: "solved" | "pending" | "none";
  /** The insert's request headers, to compare with the attacker's. */
  headers: Record<string, string>;
  error?: string;
}

const words = meeting.form;
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
    proof: "none",
    headers: {},
  };
  const isInsert = (request: Request): boolean =>
    request.method() === "POST" &&
    new URL(request.url()).pathname === "/rest/v1/contacts" &&
    (request.postData() ?? "").includes(answers.email);
  page.on("request", (request) => {
    if (!isInsert(request)) return;
    submission.headers = request.headers();
    const proof = submission.headers[FORM_PROOF_HEADER] ?? "";
    submission.proof = proof.startsWith("pending:") ? "pending" : proof ? "solved" : "none";
  });
  page.on("response", (response) => {
    if (isInsert(response.request())) submission.insertStatuses.push(response.status());
  });
  page.on("requestfailed", (request) => {
    if (isInsert(request)) submission.insertStatuses.push(0);
  });
  try {
    await page.goto(`${siteUrl}/#contact-form`);
    const form = page.locator("#contact-form");
    const exact = { exact: true };
    await form.getByLabel(words.fullNameLabel, exact).click();
    await form
      .getByLabel(words.fullNameLabel, exact)
      .pressSequentially(answers.fullName, { delay: 40 });
    await form
      .getByLabel(words.organizationLabel, exact)
      .pressSequentially(answers.organization, { delay: 40 });
    await form.getByLabel(words.emailLabel, exact).pressSequentially(answers.email, { delay: 20 });
    if (answers.fleetSize)
      await form
        .getByLabel(words.fleetSizeLabel, exact)
        .pressSequentially(answers.fleetSize, { delay: 40 });
    await form
      .getByLabel(words.challengesLabel, exact)
      .pressSequentially(answers.challenges, { delay: 15 });
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

/** `count` visitors one after another (each starts when the previous one has left). */
export async function visitorsInTurn(
  count: number,
  visit: (index: number) => Promise<RealSubmission>,
): Promise<RealSubmission[]> {
  const done: RealSubmission[] = [];
  for (let index = 0; index < count; index += 1) done.push(await visit(index));
  return done;
}

/** `count` visitors, the `index`-th starting `everyMs` × index after the first (they may overlap). */
export async function visitorsOnSchedule(
  count: number,
  everyMs: number,
  visit: (index: number) => Promise<RealSubmission>,
): Promise<RealSubmission[]> {
  const start = Date.now();
  return Promise.all(
    Array.from({ length: count }, async (_, index) => {
      await new Promise((resolve) =>
        setTimeout(resolve, Math.max(0, start + index * everyMs - Date.now())),
      );
      return visit(index);
    }),
  );
}
