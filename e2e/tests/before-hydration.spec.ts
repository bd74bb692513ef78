import { content } from "../support/content";
import { expect, test } from "../support/fixtures";
import { expectedRecord, fillMeetingForm, meetingForm, toast, uniqueEmail } from "../support/form";
import { holdScripts, pageBootHasRun } from "../support/page-scripts";

const { productOptions, meetingTimeOptions, successToast } = content.meeting;

/**
 * The page is usable before its JavaScript has run (the HTML holds everything, and the scripts
 * start after the first paint): a visitor can already type. Nothing they type may be lost, and
 * the form must not submit natively (that would put their answers in a URL and store nothing).
 */
test("answers given before the page's script runs are kept and sent", async ({ page, backend }) => {
  const pageScript = await holdScripts(page, /\/page-boot-[^/]+\.js$/);

  await page.goto("/");
  const form = meetingForm(page);
  await form.section.scrollIntoViewIfNeeded();
  const input = {
    fullName: "Robin Early",
    organization: "Prairie Transit Authority",
    email: uniqueEmail("early"),
    products: [productOptions[1]!.value],
    meetingTime: meetingTimeOptions[0]!.value,
    challenges: "Typed before the scripts arrived.",
  };
  await fillMeetingForm(page, input);
  await expect(form.submit, "no native submit before the script runs").toBeDisabled();

  pageScript.release();
  await expect(form.submit).toBeEnabled();
  await expect(form.fullName).toHaveValue("Robin Early");
  await form.submit.click();
  await expect(toast(page, successToast.title)).toBeVisible();
  expect(page.url()).not.toContain("fullName=");

  const rows = await backend.rows();
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject(expectedRecord(input));
});

/**
 * The form is an island (src/boot/meeting-form-hydration.ts): its script loads after the page's,
 * when the browser is idle or when the visitor reaches the form. A visitor who starts typing once
 * the page's scripts ran but before the form's own script arrived loses nothing either.
 */
test("answers given before the form's own script arrives are kept and sent", async ({
  page,
  backend,
}) => {
  const formScript = await holdScripts(page, /\/meeting-form-[^/]+\.js$/);

  await page.goto("/");
  await pageBootHasRun(page);
  const form = meetingForm(page);
  await form.section.scrollIntoViewIfNeeded();
  const input = {
    fullName: "Sam Island",
    organization: "Coastal Mobility",
    email: uniqueEmail("island"),
    phone: "555 010 2020",
    products: [productOptions[0]!.value, productOptions[2]!.value],
    meetingTime: meetingTimeOptions[5]!.value,
    challenges: "Typed while the form's script was on its way.",
  };
  await fillMeetingForm(page, input);
  await expect(
    form.submit,
    "page-boot catches a submit until the form's script runs (e2e/tests/submit-ready.spec.ts)",
  ).toBeEnabled();
  expect(formScript.scriptRequests, "the page asked for the form's script").toHaveLength(1);

  formScript.release();
  await expect(form.submit).toBeEnabled();
  await expect(form.fullName).toHaveValue(input.fullName);
  await expect(form.challenges).toHaveValue(input.challenges);
  await form.submit.click();
  await expect(toast(page, successToast.title)).toBeVisible();

  const rows = await backend.rows();
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject(expectedRecord(input));
});
