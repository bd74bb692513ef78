import type { Locator, Page, Route } from "@playwright/test";
import { SUBMIT_FAILURE_TOAST, SUBMIT_SUCCESS_TOAST } from "../../src/lib/toast-texts";
import { content } from "./content";

export { SUBMIT_FAILURE_TOAST, SUBMIT_SUCCESS_TOAST };

/** The meeting form's controls, found by their accessible names as a person would find them. */
export function meetingForm(page: Page) {
  const section = page.locator("#contact-form");
  return {
    section,
    fullName: section.getByLabel("Full Name"),
    organization: section.getByLabel("Transit Agency/Organization"),
    email: section.getByLabel("Email"),
    phone: section.getByLabel("Phone"),
    fleetSize: section.getByLabel("Fleet Size"),
    products: section.getByRole("group", { name: "Products of Interest" }),
    meetingTimes: section.getByRole("group", { name: "Preferred Meeting Time" }),
    challenges: section.getByLabel("Challenges/Questions"),
    product: (label: string) => section.getByRole("checkbox", { name: label, exact: true }),
    meetingTime: (label: string) => section.getByRole("radio", { name: label, exact: true }),
    submit: section.getByRole("button", { name: /Schedule My CTAA Meeting|Scheduling\.\.\./ }),
    /** Every control a visitor can change or press. */
    controls: section.locator("form").locator("input:not([tabindex='-1']), textarea, select, button"),
  };
}

export type FormInput = {
  fullName: string;
  organization: string;
  email: string;
  phone?: string;
  fleetSize?: string;
  products?: string[]; // labels
  meetingTime?: string; // label
  challenges?: string;
};

export async function fillMeetingForm(page: Page, input: FormInput): Promise<void> {
  const form = meetingForm(page);
  await form.fullName.fill(input.fullName);
  await form.organization.fill(input.organization);
  await form.email.fill(input.email);
  if (input.phone !== undefined) await form.phone.fill(input.phone);
  if (input.fleetSize !== undefined) await form.fleetSize.fill(input.fleetSize);
  for (const label of input.products ?? []) await form.product(label).check();
  if (input.meetingTime) await form.meetingTime(input.meetingTime).check();
  if (input.challenges !== undefined) await form.challenges.fill(input.challenges);
}

/** What the form shows, to compare before and after a failed submission. */
export async function formState(page: Page) {
  const form = meetingForm(page);
  return {
    fullName: await form.fullName.inputValue(),
    organization: await form.organization.inputValue(),
    email: await form.email.inputValue(),
    phone: await form.phone.inputValue(),
    fleetSize: await form.fleetSize.inputValue(),
    challenges: await form.challenges.inputValue(),
    products: await checkedLabels(form.products.getByRole("checkbox")),
    meetingTime: (await checkedLabels(form.meetingTimes.getByRole("radio")))[0] ?? "",
  };
}

async function checkedLabels(boxes: Locator): Promise<string[]> {
  return boxes.evaluateAll((inputs: HTMLInputElement[]) =>
    inputs.filter((input) => input.checked).map((input) => (input.labels?.[0]?.textContent ?? "").trim()),
  );
}

export const EMPTY_FORM = {
  fullName: "",
  organization: "",
  email: "",
  phone: "",
  fleetSize: "",
  challenges: "",
  products: [] as string[],
  meetingTime: "",
};

/** A toast, found as a screen reader announces it (react-toastify gives each one role="alert"). */
export function toast(page: Page, title: string): Locator {
  return page.getByRole("alert").filter({ hasText: title });
}

export function productLabel(value: string): string {
  const option = content.meeting.productOptions.find((candidate) => candidate.value === value);
  if (!option) throw new Error(`no product option ${value} in content/meeting.yaml`);
  return option.label;
}

/**
 * Holds the page's insert requests until `release()` is called, so a test can look at the
 * submitting state. The request then reaches the real backend unchanged.
 */
export async function holdInserts(page: Page, backendUrl: string) {
  const held: Route[] = [];
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(`${backendUrl}/rest/v1/contacts*`, async (route) => {
    if (route.request().method() !== "POST") return route.continue();
    held.push(route);
    await released;
    await route.continue();
  });
  return { held, release };
}

/** A unique address: the database accepts at most five requests per address and hour. */
export function uniqueEmail(tag: string): string {
  return `${tag}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@agency.example.org`;
}
