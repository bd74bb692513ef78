/** The meeting form in the built page: a backend down, an error answer or no answer shows the failure toast and keeps every value. */
import { content } from "../support/content";
import { expect, test } from "../support/fixtures";
import { fillMeetingForm, formState, meetingForm, toast, uniqueEmail } from "../support/form";

const {
  form: words,
  productOptions,
  meetingTimeOptions,
  successToast,
  failureToast,
} = content.meeting;

test.beforeEach(async ({ page }) => {
  await page.goto("/");
  await meetingForm(page).section.scrollIntoViewIfNeeded();
});

test.describe("meeting form: failures keep every value", () => {
  const input = {
    fullName: "Morgan Lee",
    organization: "Cascade Paratransit",
    phone: "555-0100",
    fleetSize: "40",
    products: [productOptions[1]!.value],
    meetingTime: meetingTimeOptions[4]!.value,
    challenges: "Run-cutting for two depots.",
  };

  test("backend down: failure toast, the error in the console, values kept; later the same values go through", async ({
    page,
    backend,
    diagnostics,
  }) => {
    diagnostics.allowErrors(/ERR_CONNECTION_REFUSED|Failed to load resource/, /Meeting request/);
    const form = meetingForm(page);
    const email = uniqueEmail("down");
    await fillMeetingForm(page, { ...input, email });
    const before = await formState(page);
    await backend.stop();

    await form.submit.click();
    const failure = toast(page, failureToast.title);
    await expect(failure).toContainText(failureToast.text);
    await expect(
      page.locator(".Toastify__toast--error").filter({ hasText: failureToast.title }),
    ).toHaveCount(1);
    expect(await formState(page)).toEqual(before);
    await expect(form.submit).toBeEnabled();
    expect(
      diagnostics.errors.some((line) => /Meeting request/.test(line) && line.includes(backend.url)),
    ).toBe(true);

    await backend.start();
    await form.submit.click();
    await expect(toast(page, successToast.title)).toBeVisible();
    expect((await backend.rows()).map((row) => row.email)).toEqual([email]);
  });

  for (const answer of [
    { status: 500, body: { message: "upstream timeout", code: "XX000" }, console: /HTTP 500/ },
    {
      status: 401,
      body: {
        message: "Invalid API key",
        hint: "Double check your Supabase `anon` or `service_role` API key.",
      },
      console: /GATSBY_SUPABASE_ANON_KEY/,
    },
  ]) {
    test(`an HTTP ${answer.status} answer: failure toast, a console message that says what is wrong, values kept`, async ({
      page,
      backend,
      diagnostics,
    }) => {
      diagnostics.allowErrors(/Failed to load resource/, /Meeting request/);
      await page.route(`${backend.url}/rest/v1/contacts*`, (route) =>
        route.request().method() === "POST"
          ? route.fulfill({
              status: answer.status,
              contentType: "application/json",
              headers: { "access-control-allow-origin": "*" },
              body: JSON.stringify(answer.body),
            })
          : route.continue(),
      );
      await fillMeetingForm(page, { ...input, email: uniqueEmail(`http${answer.status}`) });
      const before = await formState(page);
      await meetingForm(page).submit.click();
      await expect(toast(page, failureToast.title)).toContainText(failureToast.text);
      expect(await formState(page)).toEqual(before);
      expect(
        diagnostics.errors.filter((line) => answer.console.test(line)),
        diagnostics.errors.join("\n"),
      ).not.toHaveLength(0);
      expect(await backend.rows()).toHaveLength(0);
    });
  }

  test("no answer: the form gives up after about 15 s with the failure toast, values kept", async ({
    page,
    backend,
    diagnostics,
  }) => {
    test.setTimeout(45_000);
    diagnostics.allowErrors(/Meeting request/, /Failed to load resource/);
    await page.route(`${backend.url}/rest/v1/contacts*`, (route) =>
      route.request().method() === "POST" ? undefined : route.continue(),
    );
    await fillMeetingForm(page, { ...input, email: uniqueEmail("silent") });
    const before = await formState(page);
    const form = meetingForm(page);
    await form.submit.click();
    const started = Date.now();
    await expect(form.submit).toHaveText(words.submittingLabel);
    await expect(toast(page, failureToast.title)).toBeVisible({ timeout: 25_000 });
    const waited = (Date.now() - started) / 1000;
    expect(waited).toBeGreaterThan(12);
    expect(waited).toBeLessThan(19);
    expect(await formState(page)).toEqual(before);
    await expect(form.submit).toBeEnabled();
    expect(diagnostics.errors.some((line) => /did not answer/.test(line))).toBe(true);
  });
});
