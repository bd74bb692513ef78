import { expect, test } from "../support/fixtures";
import { fillMeetingForm, meetingForm, productLabel, SUBMIT_SUCCESS_TOAST, toast, uniqueEmail } from "../support/form";

/**
 * The page is usable before its JavaScript has run (the HTML holds everything, and the scripts
 * start after the first paint): a visitor can already type. Nothing they type may be lost, and
 * the form must not submit natively (that would put their answers in a URL and store nothing).
 */
test("answers given before the page's script runs are kept and sent", async ({ page, backend }) => {
  let releaseScripts = () => {};
  const scriptsHeld = new Promise<void>((resolve) => (releaseScripts = resolve));
  await page.route(/\/app-[^/]+\.js$/, async (route) => {
    await scriptsHeld;
    await route.continue();
  });

  await page.goto("/");
  const form = meetingForm(page);
  await form.section.scrollIntoViewIfNeeded();
  const email = uniqueEmail("early");
  await fillMeetingForm(page, {
    fullName: "Robin Early",
    organization: "Prairie Transit Authority",
    email,
    products: [productLabel("OptiRun")],
    meetingTime: "Day 1 Morning",
    challenges: "Typed before the scripts arrived.",
  });
  await expect(form.submit, "no native submit before the script runs").toBeDisabled();

  releaseScripts();
  await expect(form.submit).toBeEnabled();
  await expect(form.fullName).toHaveValue("Robin Early");
  await form.submit.click();
  await expect(toast(page, SUBMIT_SUCCESS_TOAST.title)).toBeVisible();
  expect(page.url()).not.toContain("fullName=");

  const rows = await backend.rows();
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({
    name: "Robin Early",
    organization: "Prairie Transit Authority",
    email,
    message: [
      "Phone: Not provided",
      "Fleet Size: Not provided",
      "Products of Interest: OptiRun",
      "Preferred Meeting Time: Day 1 Morning",
      "Challenges/Questions: Typed before the scripts arrived.",
    ].join("\n"),
  });
});
