/**
 * The meeting form in the built page against the real local backend: its fields, the browser's
 * own refusals, a submission from the submitting state to the stored row, the honeypot, and the
 * whole form by keyboard (the Tab order skips the honeypot).
 */
import { FIELD_LIMITS } from "../../src/lib/field-limits";
import { axeViolations } from "../support/axe";
import { content } from "../support/content";
import { expect, test } from "../support/fixtures";
import {
  answers,
  everyAnswer,
  expectStored,
  fillMeetingForm,
  formShows,
  holdInserts,
  meetingForm,
  openForm,
  toast,
  uniqueEmail,
  type FormInput,
} from "../support/form";

const { form: words, productOptions, meetingTimeOptions, successToast } = content.meeting;

test("the fields as the content gives them, each stopping at the length the database accepts; the honeypot out of people's way", async ({
  page,
}) => {
  const form = await openForm(page);
  // Not visible, not in the accessibility tree (not a Tab stop: the keyboard test below). What a
  // bot that fills it gets: src/components/meeting-form.test.tsx.
  const honeypot = form.section.locator("form input[tabindex='-1']");
  await expect(honeypot).toHaveCount(1);
  await expect(honeypot).not.toBeInViewport();
  await expect(honeypot.locator("xpath=ancestor::*[@aria-hidden='true']")).not.toHaveCount(0);
  await expect(form.section.getByRole("textbox")).toHaveCount(6);
  for (const field of [form.fullName, form.organization, form.email])
    await expect(field).toHaveAttribute("required", "");
  for (const field of [form.phone, form.fleetSize, form.challenges])
    await expect(field).not.toHaveAttribute("required", /.*/);
  await expect(form.email).toHaveAttribute("type", "email");
  await expect(form.challenges).toHaveJSProperty("tagName", "TEXTAREA");
  await expect(form.products.getByRole("checkbox")).toHaveCount(productOptions.length);
  await expect(form.meetingTimes.getByRole("radio")).toHaveCount(meetingTimeOptions.length);
  await expect(form.submit).toHaveText(words.submitLabel);
  await expect(form.submit).toBeEnabled();

  for (const name of Object.keys(FIELD_LIMITS) as (keyof typeof FIELD_LIMITS)[]) {
    const limit = FIELD_LIMITS[name];
    await expect(form[name]).toBeEditable();
    await expect(form[name]).toHaveAttribute("maxlength", String(limit));
    await form[name].focus();
    // Inserted text, as a paste arrives: the browser cuts it at the limit.
    await page.keyboard.insertText("x".repeat(limit + 25));
    expect(await form[name].inputValue()).toHaveLength(limit);
  }
});

type Refused = [what: string, input: Partial<FormInput> | null, field: Field, flaw: Flaw];
type Field = "fullName" | "organization" | "email";
type Flaw = "valueMissing" | "typeMismatch" | "patternMismatch";

/** What is typed over the required answers (none at all for the empty form), and what is refused. */
const REFUSED: Refused[] = [
  ["an empty form", null, "fullName", "valueMissing"],
  ["an e-mail address that ends at the @", { email: "dana.whitfield@" }, "email", "typeMismatch"],
  ["an e-mail address without an @", { email: "dana at valley transit" }, "email", "typeMismatch"],
  ["a full name of spaces only", { fullName: "   \t " }, "fullName", "patternMismatch"],
  ["an organization of spaces only", { organization: "   \t " }, "organization", "patternMismatch"],
];

test.describe("the browser refuses with its own message, and nothing is sent:", () => {
  for (const [what, input, field, flaw] of REFUSED) {
    test(what, async ({ page, backend, diagnostics }) => {
      const form = await openForm(page);
      if (input) await fillMeetingForm(page, answers("refused", input));
      await form.submit.click();
      await expect(form[field]).toBeFocused();
      const validity = await form[field].evaluate(
        (element: HTMLInputElement, key) => [element.validity[key], element.validationMessage],
        flaw,
      );
      expect(validity).toEqual([true, expect.stringMatching(/./)]);
      await expect(form.submit).toHaveText(words.submitLabel);
      await page.waitForTimeout(500);
      expect(diagnostics.insertRequests).toHaveLength(0);
      expect(await backend.rows()).toHaveLength(0);
    });
  }
});

test("a full submission: submitting state, success toast (no axe violations), reset form, exactly the expected record", async ({
  page,
  backend,
  diagnostics,
}) => {
  const form = await openForm(page);
  await expect(form.submit).toBeEnabled(); // the page's script has run: the form as a visitor uses it
  const empty = await formShows(page);
  const [first, , , fourth] = productOptions.map((option) => option.value);
  const input = {
    fullName: "  Dana Whitfield ",
    organization: "Valley Regional Transit ",
    email: uniqueEmail("dana"),
    phone: " (555) 010-4477",
    fleetSize: "25 vehicles",
    products: [fourth!, first!], // ticked out of order
    meetingTime: meetingTimeOptions[3]!.value,
    challenges: "  Our Sunday microtransit zone averages 2.1 trips per hour.\nHow do we reach 5?  ",
  };
  await fillMeetingForm(page, input);
  const gate = await holdInserts(page);
  await form.submit.click();

  // Submitting: the button says so and nothing can be changed or pressed.
  await expect(form.submit).toHaveText(words.submittingLabel);
  const controls = await form.controls.all();
  expect(controls.length).toBeGreaterThanOrEqual(6 + 5 + 6);
  for (const control of controls) await expect(control).toBeDisabled();
  // A second click, Enter, or a script submitting again send nothing more.
  await form.submit.click({ force: true });
  await page.keyboard.press("Enter");
  await form.section
    .locator("form")
    .evaluate((element: HTMLFormElement) => element.requestSubmit());
  await expect.poll(() => gate.held.length).toBe(1);
  gate.release();

  await expect(toast(page, successToast.title)).toContainText(successToast.text);
  // The toast wears the site's tokens (src/styles/global.css), not react-toastify's defaults.
  const toastStyle = await toast(page, successToast.title).evaluate((element) => {
    const style = getComputedStyle(element);
    return [style.fontFamily, style.getPropertyValue("--toastify-color-success").trim()];
  });
  expect(toastStyle).toEqual([expect.stringMatching(/^system-ui/), "#0b6e4f"]);
  await page.waitForTimeout(800); // the toast's entrance animation done: axe checks final colours
  expect(await axeViolations(page)).toEqual([]);
  await expect(form.submit).toHaveText(words.submitLabel);
  await expect(form.submit).toBeEnabled();
  expect(await formShows(page)).toBe(empty);
  expect(diagnostics.insertRequests).toHaveLength(1);

  // Trimmed answers, the products in the form's order, the meeting time's label.
  await expectStored(backend, { ...input, products: [first!, fourth!] });
  const [row] = await backend.rows();
  expect(row!.name).toBe("Dana Whitfield");
  expect(row!.message).toContain(meetingTimeOptions[3]!.label);
});

test("the whole form can be completed and submitted with the keyboard", async ({
  page,
  backend,
}) => {
  await page.goto("/");
  const form = meetingForm(page);
  const input = everyAnswer("keys");

  // From the top of the page, Tab until the first field.
  let stops = 0;
  while (!(await form.fullName.evaluate((field) => field === document.activeElement))) {
    await page.keyboard.press("Tab");
    expect(++stops, "Full Name is reachable by Tab").toBeLessThan(60);
  }
  for (const field of ["fullName", "organization", "email", "phone", "fleetSize"] as const) {
    await expect(form[field]).toBeFocused();
    await page.keyboard.type(input[field]!);
    await page.keyboard.press("Tab");
  }

  // Products: Tab to each checkbox, Space ticks the first and the third.
  const boxes = form.products.getByRole("checkbox");
  for (let index = 0; index < productOptions.length; index++) {
    await expect(boxes.nth(index)).toBeFocused();
    if (index === 0 || index === 2) await page.keyboard.press("Space");
    await page.keyboard.press("Tab");
  }

  // Meeting time: one Tab into the group, arrows choose.
  await expect(form.meetingTimes.getByRole("radio").first()).toBeFocused();
  for (let press = 0; press < 3; press++) await page.keyboard.press("ArrowDown");
  const chosen = form.meetingTime(meetingTimeOptions[3]!.label);
  await expect(chosen).toBeChecked();
  await expect(chosen).toBeFocused();

  await page.keyboard.press("Tab");
  await expect(form.challenges).toBeFocused();
  await page.keyboard.type(input.challenges!);
  await page.keyboard.press("Tab");
  await expect(form.submit).toBeFocused(); // the honeypot is skipped
  await page.keyboard.press("Enter");

  await expect(toast(page, successToast.title)).toBeVisible();
  await expectStored(backend, input);
});
