/** The meeting form in the built page: the browser refuses bad input before anything is sent. */
import { content } from "../support/content";
import { expect, test } from "../support/fixtures";
import { fillMeetingForm, meetingForm, uniqueEmail } from "../support/form";

const { form: words } = content.meeting;

test.beforeEach(async ({ page }) => {
  await page.goto("/");
  await meetingForm(page).section.scrollIntoViewIfNeeded();
});

test.describe("meeting form: the browser refuses bad input before anything is sent", () => {
  test("an empty submit", async ({ page, diagnostics }) => {
    const form = meetingForm(page);
    await form.submit.click();
    await expect(form.fullName).toBeFocused();
    expect(
      await form.fullName.evaluate((input: HTMLInputElement) => input.validity.valueMissing),
    ).toBe(true);
    expect(
      await form.fullName.evaluate((input: HTMLInputElement) => input.validationMessage),
    ).not.toBe("");
    await page.waitForTimeout(500);
    expect(diagnostics.insertRequests).toHaveLength(0);
    await expect(form.submit).toHaveText(words.submitLabel);
  });

  test("a malformed e-mail address", async ({ page, diagnostics, backend }) => {
    const form = meetingForm(page);
    await fillMeetingForm(page, {
      fullName: "Dana Whitfield",
      organization: "Valley Regional Transit",
      email: "dana.whitfield@",
    });
    await form.submit.click();
    await expect(form.email).toBeFocused();
    expect(
      await form.email.evaluate((input: HTMLInputElement) => input.validity.typeMismatch),
    ).toBe(true);
    await form.email.fill("dana whitfield at valley transit");
    await form.submit.click();
    expect(await form.email.evaluate((input: HTMLInputElement) => input.validity.valid)).toBe(
      false,
    );
    await page.waitForTimeout(500);
    expect(diagnostics.insertRequests).toHaveLength(0);
    expect(await backend.rows()).toHaveLength(0);
  });

  for (const field of ["fullName", "organization"] as const) {
    test(`a ${field} of spaces only, with the browser's own message`, async ({
      page,
      diagnostics,
    }) => {
      const form = meetingForm(page);
      await fillMeetingForm(page, {
        fullName: "Dana Whitfield",
        organization: "Valley Regional Transit",
        email: uniqueEmail("spaces"),
      });
      await form[field].fill("   \t ");
      await form.submit.click();
      await expect(form[field]).toBeFocused();
      const validity = await form[field].evaluate((input: HTMLInputElement) => ({
        valid: input.validity.valid,
        message: input.validationMessage,
      }));
      expect(validity.valid).toBe(false);
      expect(validity.message).not.toBe("");
      await page.waitForTimeout(500);
      expect(diagnostics.insertRequests).toHaveLength(0);
    });
  }
});
