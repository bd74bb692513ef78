import { FIELD_LIMITS } from "../../src/lib/field-limits";
import { content } from "../support/content";
import { expect, test } from "../support/fixtures";
import { EMPTY_FORM, expectedRecord, fillMeetingForm, formState, holdInserts, meetingForm, toast, uniqueEmail } from "../support/form";

const { form: words, productOptions, meetingTimeOptions, successToast, failureToast } = content.meeting;

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

test.describe("meeting form: the browser refuses bad input before anything is sent", () => {
  test("an empty submit", async ({ page, diagnostics }) => {
    const form = meetingForm(page);
    await form.submit.click();
    await expect(form.fullName).toBeFocused();
    expect(await form.fullName.evaluate((input: HTMLInputElement) => input.validity.valueMissing)).toBe(true);
    expect(await form.fullName.evaluate((input: HTMLInputElement) => input.validationMessage)).not.toBe("");
    await page.waitForTimeout(500);
    expect(diagnostics.insertRequests).toHaveLength(0);
    await expect(form.submit).toHaveText(words.submitLabel);
  });

  test("a malformed e-mail address", async ({ page, diagnostics, backend }) => {
    const form = meetingForm(page);
    await fillMeetingForm(page, { fullName: "Dana Whitfield", organization: "Valley Regional Transit", email: "dana.whitfield@" });
    await form.submit.click();
    await expect(form.email).toBeFocused();
    expect(await form.email.evaluate((input: HTMLInputElement) => input.validity.typeMismatch)).toBe(true);
    await form.email.fill("dana whitfield at valley transit");
    await form.submit.click();
    expect(await form.email.evaluate((input: HTMLInputElement) => input.validity.valid)).toBe(false);
    await page.waitForTimeout(500);
    expect(diagnostics.insertRequests).toHaveLength(0);
    expect(await backend.rows()).toHaveLength(0);
  });

  for (const field of ["fullName", "organization"] as const) {
    test(`a ${field} of spaces only, with the browser's own message`, async ({ page, diagnostics }) => {
      const form = meetingForm(page);
      await fillMeetingForm(page, { fullName: "Dana Whitfield", organization: "Valley Regional Transit", email: uniqueEmail("spaces") });
      await form[field].fill("   \t ");
      await form.submit.click();
      await expect(form[field]).toBeFocused();
      const validity = await form[field].evaluate((input: HTMLInputElement) => ({ valid: input.validity.valid, message: input.validationMessage }));
      expect(validity.valid).toBe(false);
      expect(validity.message).not.toBe("");
      await page.waitForTimeout(500);
      expect(diagnostics.insertRequests).toHaveLength(0);
    });
  }
});

test.describe("meeting form: submitting", () => {
  test("a full submission: submitting state, success toast, reset form, exactly the expected record", async ({ page, backend, diagnostics }) => {
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
      challenges: "  Our Sunday microtransit zone averages 2.1 trips per hour.\nHow do we reach 5?  ",
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
    await form.section.locator("form").evaluate((element: HTMLFormElement) => element.requestSubmit());
    await expect.poll(() => gate.held.length).toBe(1);
    gate.release();

    await expect(toast(page, successToast.title)).toContainText(successToast.text);
    // The toast wears the site's tokens (src/styles/global.css), not react-toastify's defaults.
    const toastStyle = await page.locator(".Toastify__toast--success").first().evaluate((element) => {
      const style = getComputedStyle(element);
      return { font: style.fontFamily, success: style.getPropertyValue("--toastify-color-success").trim() };
    });
    expect(toastStyle).toEqual({ font: expect.stringMatching(/^system-ui/), success: "#0b6e4f" });
    await expect(form.submit).toHaveText(words.submitLabel);
    await expect(form.submit).toBeEnabled();
    expect(await formState(page)).toEqual(EMPTY_FORM);
    expect(diagnostics.insertRequests).toHaveLength(1);

    // The stored row: trimmed answers, the products in the form's order, the meeting time's label.
    const rows = await backend.rows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject(expectedRecord({ ...input, products: [firstProduct!, fourthProduct!] }));
    expect(rows[0]!.name).toBe("Dana Whitfield");
    expect(rows[0]!.message).toContain(meetingTimeOptions[3]!.label);
  });

  test("only the required fields (and blank optional ones): the row is stored, saying what was left empty", async ({ page, backend }) => {
    const input = { fullName: "Lee Park", organization: "Harbor Transit District", email: uniqueEmail("min"), phone: "   ", challenges: " \n " };
    await fillMeetingForm(page, input);
    await meetingForm(page).submit.click();
    await expect(toast(page, successToast.title)).toBeVisible();
    const rows = await backend.rows();
    expect(rows.map(({ name, organization, email, message }) => ({ name, organization, email, message }))).toEqual([expectedRecord(input)]);
  });

  test("a double click sends one request", async ({ page, backend, diagnostics }) => {
    await fillMeetingForm(page, { fullName: "Sam Ortiz", organization: "Mesa County Transit", email: uniqueEmail("double") });
    await meetingForm(page).submit.dblclick();
    await expect(toast(page, successToast.title)).toBeVisible();
    await page.waitForTimeout(300);
    expect(diagnostics.insertRequests).toHaveLength(1);
    expect(await backend.rows()).toHaveLength(1);
  });

  test("the honeypot: a bot that fills it sees the success toast and nothing is sent", async ({ page, backend, diagnostics }) => {
    const honeypot = page.locator("#contact-form form input[tabindex='-1']");
    await expect(honeypot).toHaveCount(1);
    // People never meet it: not visible, not in the accessibility tree, not a Tab stop.
    await expect(honeypot).not.toBeInViewport();
    expect(await honeypot.evaluate((input) => Boolean(input.closest("[aria-hidden='true']")))).toBe(true);
    const textboxes = await meetingForm(page).section.getByRole("textbox").count();
    expect(textboxes).toBe(6); // name, organization, e-mail, phone, fleet size, challenges

    await fillMeetingForm(page, { fullName: "Spam Bot", organization: "Spam Inc", email: uniqueEmail("bot") });
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

  test("backend down: failure toast, the error in the console, values kept; later the same values go through", async ({ page, backend, diagnostics }) => {
    diagnostics.allowErrors(/ERR_CONNECTION_REFUSED|Failed to load resource/, /Meeting request/);
    const form = meetingForm(page);
    const email = uniqueEmail("down");
    await fillMeetingForm(page, { ...input, email });
    const before = await formState(page);
    await backend.stop();

    await form.submit.click();
    const failure = toast(page, failureToast.title);
    await expect(failure).toContainText(failureToast.text);
    await expect(page.locator(".Toastify__toast--error").filter({ hasText: failureToast.title })).toHaveCount(1);
    expect(await formState(page)).toEqual(before);
    await expect(form.submit).toBeEnabled();
    expect(diagnostics.errors.some((line) => /Meeting request/.test(line) && line.includes(backend.url))).toBe(true);

    await backend.start();
    await form.submit.click();
    await expect(toast(page, successToast.title)).toBeVisible();
    expect((await backend.rows()).map((row) => row.email)).toEqual([email]);
  });

  for (const answer of [
    { status: 500, body: { message: "upstream timeout", code: "XX000" }, console: /HTTP 500/ },
    { status: 401, body: { message: "Invalid API key", hint: "Double check your Supabase `anon` or `service_role` API key." }, console: /GATSBY_SUPABASE_ANON_KEY/ },
  ]) {
    test(`an HTTP ${answer.status} answer: failure toast, a console message that says what is wrong, values kept`, async ({ page, backend, diagnostics }) => {
      diagnostics.allowErrors(/Failed to load resource/, /Meeting request/);
      await page.route(`${backend.url}/rest/v1/contacts*`, (route) =>
        route.request().method() === "POST"
          ? route.fulfill({ status: answer.status, contentType: "application/json", headers: { "access-control-allow-origin": "*" }, body: JSON.stringify(answer.body) })
          : route.continue(),
      );
      await fillMeetingForm(page, { ...input, email: uniqueEmail(`http${answer.status}`) });
      const before = await formState(page);
      await meetingForm(page).submit.click();
      await expect(toast(page, failureToast.title)).toContainText(failureToast.text);
      expect(await formState(page)).toEqual(before);
      expect(diagnostics.errors.filter((line) => answer.console.test(line)), diagnostics.errors.join("\n")).not.toHaveLength(0);
      expect(await backend.rows()).toHaveLength(0);
    });
  }

  test("no answer: the form gives up after about 15 s with the failure toast, values kept", async ({ page, backend, diagnostics }) => {
    test.setTimeout(45_000);
    diagnostics.allowErrors(/Meeting request/, /Failed to load resource/);
    await page.route(`${backend.url}/rest/v1/contacts*`, (route) => (route.request().method() === "POST" ? undefined : route.continue()));
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

test.describe("toasts", () => {
  test("a toast is announced, vanishes after about 4 s, and never more than 3 show at once", async ({ page, backend, diagnostics }) => {
    diagnostics.allowErrors(/Meeting request/, /Failed to load resource/);
    // Count the toasts on screen after every change to the page.
    await page.evaluate(() => {
      const state = { max: 0, shown: 0 };
      (window as unknown as { __toastMax: typeof state }).__toastMax = state;
      new MutationObserver((mutations) => {
        state.max = Math.max(state.max, document.querySelectorAll("[role=alert]").length);
        for (const mutation of mutations) {
          for (const node of mutation.addedNodes) {
            if (node instanceof Element) state.shown += (node.matches("[role=alert]") ? 1 : 0) + node.querySelectorAll("[role=alert]").length;
          }
        }
      }).observe(document.body, { subtree: true, childList: true });
    });
    await page.route(`${backend.url}/rest/v1/contacts*`, (route) => (route.request().method() === "POST" ? route.abort("connectionrefused") : route.continue()));
    const form = meetingForm(page);
    await fillMeetingForm(page, { fullName: "Toast Tester", organization: "Metro Transit", email: uniqueEmail("toast") });

    const failures = page.getByRole("alert").filter({ hasText: failureToast.title });
    await form.submit.click();
    await expect(failures).toHaveCount(1);
    const firstShown = Date.now();
    // The toast region is a live region, so screen readers announce each toast.
    await expect(page.locator("[aria-live]").filter({ has: failures.first() })).toHaveCount(1);

    for (let attempt = 2; attempt <= 5; attempt++) {
      await expect(form.submit).toBeEnabled();
      await form.submit.click();
    }
    await expect.poll(() => failures.count()).toBe(3);
    await page.waitForTimeout(500);
    expect(await failures.count()).toBe(3);

    // Everything clears: each toast about 4 s after it showed, the two queued ones after them.
    // (Between the first three leaving and the queued two arriving the count is briefly 0.)
    const toastStats = () => page.evaluate(() => (window as unknown as { __toastMax: { max: number; shown: number } }).__toastMax);
    await expect.poll(async () => (await toastStats()).shown, { timeout: 20_000 }).toBeGreaterThanOrEqual(5);
    await expect(failures).toHaveCount(0, { timeout: 20_000 });
    expect((await toastStats()).max).toBe(3);

    // One toast alone: on screen for about 4 s.
    await form.submit.click();
    await expect(failures).toHaveCount(1);
    const shown = Date.now();
    await expect(failures).toHaveCount(0, { timeout: 10_000 });
    const onScreen = (Date.now() - shown) / 1000;
    expect(onScreen).toBeGreaterThan(3.2);
    expect(onScreen).toBeLessThan(6);
    expect(firstShown).toBeLessThan(shown);
  });
});

test.describe("keyboard only", () => {
  test("the whole form can be completed and submitted with the keyboard", async ({ page, backend }) => {
    await page.goto("/");
    const form = meetingForm(page);
    const email = uniqueEmail("keys");

    // From the top of the page, Tab until the first field: every stop shows where focus is.
    let stops = 0;
    while (!(await form.fullName.evaluate((input) => input === document.activeElement))) {
      await page.keyboard.press("Tab");
      stops += 1;
      expect(stops, "Full Name is reachable by Tab").toBeLessThan(60);
    }
    await page.keyboard.type("Avery Chen");
    await page.keyboard.press("Tab");
    await expect(form.organization).toBeFocused();
    await page.keyboard.type("Riverside Transit Agency");
    await page.keyboard.press("Tab");
    await expect(form.email).toBeFocused();
    await page.keyboard.type(email);
    await page.keyboard.press("Tab");
    await expect(form.phone).toBeFocused();
    await page.keyboard.type("555-0142");
    await page.keyboard.press("Tab");
    await expect(form.fleetSize).toBeFocused();
    await page.keyboard.type("12 vehicles");

    // Products: Tab to each checkbox, Space ticks the first and the third.
    const boxes = form.products.getByRole("checkbox");
    await page.keyboard.press("Tab");
    await expect(boxes.nth(0)).toBeFocused();
    await page.keyboard.press("Space");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    await expect(boxes.nth(2)).toBeFocused();
    await page.keyboard.press("Space");
    for (let index = 3; index < productOptions.length; index++) await page.keyboard.press("Tab");
    await expect(boxes.last()).toBeFocused();

    // Meeting time: one Tab into the group, arrows choose.
    await page.keyboard.press("Tab");
    const radios = form.meetingTimes.getByRole("radio");
    await expect(radios.first()).toBeFocused();
    for (let press = 0; press < 3; press++) await page.keyboard.press("ArrowDown"); // the fourth meeting time
    const chosenTime = meetingTimeOptions[3]!;
    await expect(form.meetingTime(chosenTime.label)).toBeChecked();
    await expect(form.meetingTime(chosenTime.label)).toBeFocused();

    await page.keyboard.press("Tab");
    await expect(form.challenges).toBeFocused();
    await page.keyboard.type("Dispatch for a new zone.");
    await page.keyboard.press("Tab");
    await expect(form.submit).toBeFocused(); // the honeypot is skipped
    await page.keyboard.press("Enter");

    await expect(toast(page, successToast.title)).toBeVisible();
    const rows = await backend.rows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject(
      expectedRecord({
        fullName: "Avery Chen",
        organization: "Riverside Transit Agency",
        email,
        phone: "555-0142",
        fleetSize: "12 vehicles",
        products: [productOptions[0]!.value, productOptions[2]!.value],
        meetingTime: chosenTime.value,
        challenges: "Dispatch for a new zone.",
      }),
    );
  });
});
