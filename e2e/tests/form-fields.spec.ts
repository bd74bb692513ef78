/** The meeting form in the built page: its fields as the content gives them, and the lengths the database accepts. */
import { FIELD_LIMITS } from "../../src/lib/field-limits";
import { content } from "../support/content";
import { expect, test } from "../support/fixtures";
import { meetingForm } from "../support/form";

const { form: words, productOptions, meetingTimeOptions } = content.meeting;

test.beforeEach(async ({ page }) => {
  await page.goto("/");
  await meetingForm(page).section.scrollIntoViewIfNeeded();
});

test.describe("meeting form: fields", () => {
  test("labels, groups, options and placeholder as the content gives them", async ({ page }) => {
    const form = meetingForm(page);
    for (const field of [form.fullName, form.organization, form.email]) {
      await expect(field).toBeEditable();
      await expect(field).toHaveAttribute("required", "");
    }
    for (const field of [form.phone, form.fleetSize, form.challenges]) {
      await expect(field).toBeEditable();
      await expect(field).not.toHaveAttribute("required", /.*/);
    }
    await expect(form.email).toHaveAttribute("type", "email");
    await expect(form.fleetSize).toHaveAttribute("placeholder", words.fleetSizePlaceholder);
    await expect(form.challenges).toHaveJSProperty("tagName", "TEXTAREA");

    await expect(form.products.getByRole("checkbox")).toHaveCount(productOptions.length);
    for (const option of productOptions) {
      await expect(form.product(option.label)).toHaveAttribute("value", option.value);
    }
    await expect(form.meetingTimes.getByRole("radio")).toHaveCount(meetingTimeOptions.length);
    for (const option of meetingTimeOptions) {
      await expect(form.meetingTime(option.label)).toHaveAttribute("value", option.value);
    }
    await expect(form.submit).toHaveText(words.submitLabel);
    await expect(form.submit).toBeEnabled();
  });

  test("every text field stops at the length the database accepts", async ({ page }) => {
    const form = meetingForm(page);
    const limits = [
      [form.fullName, FIELD_LIMITS.fullName],
      [form.organization, FIELD_LIMITS.organization],
      [form.email, FIELD_LIMITS.email],
      [form.phone, FIELD_LIMITS.phone],
      [form.fleetSize, FIELD_LIMITS.fleetSize],
      [form.challenges, FIELD_LIMITS.challenges],
    ] as const;
    for (const [field, limit] of limits) {
      await expect(field).toHaveAttribute("maxlength", String(limit));
      await field.focus();
      // Typed (inserted) text, as a paste would arrive: the browser cuts it at the limit.
      await page.keyboard.insertText("x".repeat(limit + 25));
      expect(await field.inputValue()).toHaveLength(limit);
    }
  });
});
