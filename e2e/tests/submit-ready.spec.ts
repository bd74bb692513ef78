import type { Request } from "@playwright/test";
import { content } from "../support/content";
import { expect, test } from "../support/fixtures";
import {
  expectedRecord,
  fillMeetingForm,
  formState,
  meetingForm,
  toast,
  uniqueEmail,
} from "../support/form";
import { holdScripts, pageBootHasRun } from "../support/page-scripts";

const {
  form: words,
  productOptions,
  meetingTimeOptions,
  successToast,
  failureToast,
} = content.meeting;

/**
 * The submit path of issue 20: a tap before the form is live still counts, and what the submit
 * needs is made ready when the visitor reaches the form, not while the page starts.
 */
test.describe("a submit before the form's script has arrived", () => {
  /** A visitor's answers, with an address of their own (the database takes five per address and hour). */
  const answersOf = (tag: string) => ({
    fullName: "Kai Booth",
    organization: "Harbor Area Transit",
    email: uniqueEmail(tag),
    products: [productOptions[0]!.value],
    meetingTime: meetingTimeOptions[2]!.value,
    challenges: "Tapped before the form was live.",
  });

  test("is shown as submitting at once, sent exactly once without waiting for the form's script, and never submitted natively", async ({
    page,
    backend,
    diagnostics,
  }) => {
    const formScript = await holdScripts(page, /\/(framework|meeting-form)-[^/]+\.js$/);
    await page.goto("/");
    await pageBootHasRun(page);
    const url = page.url();
    const form = meetingForm(page);
    await form.section.scrollIntoViewIfNeeded();
    const answers = answersOf("early-tap");
    await fillMeetingForm(page, answers);

    await expect(form.submit, "the button works before the form's script").toBeEnabled();
    await form.submit.click();
    await expect(form.submit).toHaveText(words.submittingLabel);
    for (const control of await form.controls.all()) await expect(control).toBeDisabled();
    await expect(form.section.locator("form")).toHaveAttribute("aria-busy", "true");
    expect(page.url(), "no native submit: same URL, no answers in a query string").toBe(url);
    await expect
      .poll(() => backend.rows(), {
        message: "stored while React and the form are still on their way",
      })
      .toHaveLength(1);
    expect(diagnostics.insertRequests).toHaveLength(1);
    await expect(
      form.submit,
      "still submitting: the form shows the outcome once it is live",
    ).toHaveText(words.submittingLabel);

    formScript.release();
    await expect(toast(page, successToast.title)).toBeVisible();
    expect(page.url()).toBe(url);
    const rows = await backend.rows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject(expectedRecord(answers));
    expect(diagnostics.insertRequests).toHaveLength(1);
    await expect(form.submit).toHaveText(words.submitLabel);
    await expect(form.submit).toBeEnabled();
    await expect(form.fullName).toHaveValue("");
  });

  test("that fails keeps the answers, and the form works again", async ({
    page,
    backend,
    diagnostics,
  }) => {
    diagnostics.allowErrors(/ERR_CONNECTION_REFUSED|Failed to load resource/, /Meeting request/);
    const formScript = await holdScripts(page, /\/(framework|meeting-form)-[^/]+\.js$/);
    await page.goto("/");
    await pageBootHasRun(page);
    const form = meetingForm(page);
    await form.section.scrollIntoViewIfNeeded();
    await fillMeetingForm(page, answersOf("early-fail"));
    const before = await formState(page);
    await backend.stop();

    await form.submit.click();
    await expect(form.submit).toHaveText(words.submittingLabel);
    formScript.release();
    await expect(toast(page, failureToast.title)).toContainText(failureToast.text);
    expect(await formState(page)).toEqual(before);
    for (const control of await form.controls.all()) await expect(control).toBeEnabled();
    await expect(form.submit).toHaveText(words.submitLabel);
    await expect(form.section.locator("form")).toHaveAttribute("aria-busy", "false");
  });
});

/** The header names a request carries (values differ: the warm-up has no rows). */
async function headerNames(request: Request): Promise<string[]> {
  return Object.keys(await request.allHeaders())
    .filter((name) => name !== "content-length")
    .sort();
}

test("the connection to Supabase is warmed when the visitor nears the form, not while the page starts", async ({
  page,
  backend,
  diagnostics,
}) => {
  const toSupabase: string[] = [];
  page.on("request", (request) => {
    if (request.url().startsWith(backend.url))
      toSupabase.push(`${request.method()} ${request.url()}`);
  });
  await page.goto("/");
  await pageBootHasRun(page);
  await page.waitForLoadState("networkidle"); // the form's script, loaded when the browser is idle after the load
  await page.waitForTimeout(1000);
  expect(toSupabase, "nothing goes to Supabase while the page starts").toEqual([]);
  await expect(page.locator('link[rel="preconnect"]')).toHaveCount(0);

  const form = meetingForm(page);
  await form.section.scrollIntoViewIfNeeded();
  await expect(
    page.locator(`link[rel="preconnect"][href="${backend.url}"][crossorigin="anonymous"]`),
  ).toHaveCount(1);
  await expect
    .poll(() => diagnostics.warmUpRequests.length, { message: "one warm-up of the insert" })
    .toBe(1);
  expect(await backend.rows(), "the warm-up stores nothing").toEqual([]);

  const answers = { fullName: "Ada Warm", organization: "Metro Link", email: uniqueEmail("warm") };
  await fillMeetingForm(page, answers);
  // While the visitor is on the form the warm-up is repeated, asking the preflight again each time
  // (src/lib/keep-submit-warm.ts).
  await expect
    .poll(() => diagnostics.warmUpRequests.length, {
      message: "a repeat while on the form",
      timeout: 10_000,
    })
    .toBe(2);
  await form.submit.click();
  await expect(toast(page, successToast.title)).toBeVisible();
  expect(diagnostics.insertRequests).toHaveLength(1);
  const [first, repeat] = diagnostics.warmUpRequests;
  const insertHeaders = await headerNames(diagnostics.insertRequests[0]!);
  expect(
    await headerNames(first!),
    "the warm-up asks the preflight for the insert's headers",
  ).toEqual(insertHeaders);
  expect(
    await headerNames(repeat!),
    "a repeat asks for one name more, so the answer is renewed",
  ).toEqual([...insertHeaders, "x-warm-up-a"].sort());
  expect(first!.url()).toBe(diagnostics.insertRequests[0]!.url());
  expect(repeat!.url()).toBe(diagnostics.insertRequests[0]!.url());
  expect(await backend.rows()).toHaveLength(1);

  const warmUpsAfterSubmit = diagnostics.warmUpRequests.length;
  await page.waitForTimeout(6000);
  expect(
    diagnostics.warmUpRequests,
    "a submit stops the repeats until the next focus or input",
  ).toHaveLength(warmUpsAfterSubmit);
});
