/** The meeting form in the built page: a submission from submitting state to stored row, a double click, the honeypot. */
import { content } from "../support/content";
import { expect, test } from "../support/fixtures";
import {
  EMPTY_FORM,
  expectedRecord,
  fillMeetingForm,
  formState,
  holdInserts,
  meetingForm,
  toast,
  uniqueEmail,
} from "../support/form";

const { form: words, productOptions, meetingTimeOptions, successToast } = content.meeting;

test.beforeEach(async ({ page }) => {
  await page.goto("/");
  await meetingForm(page).section.scrollIntoViewIfNeeded();
});

test.describe("meeting form: submitting", () => {
  test("a full submission: submitting state, success toast, reset form, exactly the expected record", async ({
    page,
    backend,
    diagnostics,
  }) => {
    const form = meetingForm(page);
    const [firstProduct, , , fourthProduct] = productOptions.map((option) => option.value);
    const input = {
      fullName: "  Dana Whitfield ",
      organization: "Valley Regional Transit ",
      email: uniqueEmail("dana"),
      phone: " (555) 010-4477",
      fleetSize: "25 vehicles",
      products: [fourthProduct!, firstProduct!], // ticked out of order
      meetingTime: meetingTimeOptions[3]!.value,
      challenges:
        "  Our Sunday microtransit zone averages 2.1 trips per hour.\nHow do we reach 5?  ",
    };
    await fillMeetingForm(page, input);

    const gate = await holdInserts(page, backend.url);
    await form.submit.click();

    // Submitting: the button says so and nothing can be changed or pressed.
    await expect(form.submit).toHaveText(words.submittingLabel);
    const controls = await form.controls.all();
    expect(controls.length).toBeGreaterThanOrEqual(6 + 5 + 6);
    for (const control of controls) await expect(control).toBeDisabled();

    // A second click, Enter, or a script submitting again while submitting send nothing more.
    await form.submit.click({ force: true });
    await page.keyboard.press("Enter");
    await form.section
      .locator("form")
      .evaluate((element: HTMLFormElement) => element.requestSubmit());
    await expect.poll(() => gate.held.length).toBe(1);
    gate.release();

    await expect(toast(page, successToast.title)).toContainText(successToast.text);
    // The toast wears the site's tokens (src/styles/global.css), not react-toastify's defaults.
    const toastStyle = await page
      .locator(".Toastify__toast--success")
      .first()
      .evaluate((element) => {
        const style = getComputedStyle(element);
        return {
          font: style.fontFamily,
          success: style.getPropertyValue("--toastify-color-success").trim(),
        };
      });
    expect(toastStyle).toEqual({ font: expect.stringMatching(/^system-ui/), success: "#0b6e4f" });
    await expect(form.submit).toHaveText(words.submitLabel);
    await expect(form.submit).toBeEnabled();
    expect(await formState(page)).toEqual(EMPTY_FORM);
    expect(diagnostics.insertRequests).toHaveLength(1);

    // The stored row: trimmed answers, the products in the form's order, the meeting time's label.
    const rows = await backend.rows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject(
      expectedRecord({ ...input, products: [firstProduct!, fourthProduct!] }),
    );
    expect(rows[0]!.name).toBe("Dana Whitfield");
    expect(rows[0]!.message).toContain(meetingTimeOptions[3]!.label);
  });

  test("only the required fields (and blank optional ones): the row is stored, saying what was left empty", async ({
    page,
    backend,
  }) => {
    const input = {
      fullName: "Lee Park",
      organization: "Harbor Transit District",
      email: uniqueEmail("min"),
      phone: "   ",
      challenges: " \n ",
    };
    await fillMeetingForm(page, input);
    await meetingForm(page).submit.click();
    await expect(toast(page, successToast.title)).toBeVisible();
    const rows = await backend.rows();
    expect(
      rows.map(({ name, organization, email, message }) => ({
        name,
        organization,
        email,
        message,
      })),
    ).toEqual([expectedRecord(input)]);
  });

  test("a double click sends one request", async ({ page, backend, diagnostics }) => {
    await fillMeetingForm(page, {
      fullName: "Sam Ortiz",
      organization: "Mesa County Transit",
      email: uniqueEmail("double"),
    });
    await meetingForm(page).submit.dblclick();
    await expect(toast(page, successToast.title)).toBeVisible();
    await page.waitForTimeout(300);
    expect(diagnostics.insertRequests).toHaveLength(1);
    expect(await backend.rows()).toHaveLength(1);
  });

  test("the honeypot: a bot that fills it sees the success toast and nothing is sent", async ({
    page,
    backend,
    diagnostics,
  }) => {
    const honeypot = page.locator("#contact-form form input[tabindex='-1']");
    await expect(honeypot).toHaveCount(1);
    // People never meet it: not visible, not in the accessibility tree, not a Tab stop.
    await expect(honeypot).not.toBeInViewport();
    expect(await honeypot.evaluate((input) => Boolean(input.closest("[aria-hidden='true']")))).toBe(
      true,
    );
    const textboxes = await meetingForm(page).section.getByRole("textbox").count();
    expect(textboxes).toBe(6); // name, organization, e-mail, phone, fleet size, challenges

    await fillMeetingForm(page, {
      fullName: "Spam Bot",
      organization: "Spam Inc",
      email: uniqueEmail("bot"),
    });
    await honeypot.evaluate((input: HTMLInputElement) => {
      input.value = "https://spam.example";
      input.dispatchEvent(new Event("input", { bubbles: true }));
    });
    await meetingForm(page).submit.click();
    await expect(toast(page, successToast.title)).toBeVisible();
    await expect(honeypot).toHaveValue(""); // reset with the rest of the form
    await page.waitForTimeout(500);
    expect(diagnostics.insertRequests).toHaveLength(0);
    expect(await backend.rows()).toHaveLength(0);
  });
});
