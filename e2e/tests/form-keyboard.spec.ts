/** The meeting form in the built page, completed and submitted with the keyboard alone. */
import { content } from "../support/content";
import { expect, test } from "../support/fixtures";
import { expectedRecord, meetingForm, toast, uniqueEmail } from "../support/form";

const { productOptions, meetingTimeOptions, successToast } = content.meeting;

test.beforeEach(async ({ page }) => {
  await page.goto("/");
  await meetingForm(page).section.scrollIntoViewIfNeeded();
});

test.describe("keyboard only", () => {
  test("the whole form can be completed and submitted with the keyboard", async ({
    page,
    backend,
  }) => {
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
