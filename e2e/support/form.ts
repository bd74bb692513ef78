import type { Locator, Page, Route } from "@playwright/test";
import { buildContactRecord, EMPTY_MEETING_REQUEST } from "../../src/lib/meeting-request";
import type { ContactRecord } from "../../src/lib/meeting-request";
import { content, escapeRegExp } from "./content";
import { isWarmUp } from "./fixtures";

const words = content.meeting.form;
const { productOptions, meetingTimeOptions } = content.meeting;

/** The meeting form's controls, found by their accessible names (content/meeting.yaml) as a person would find them. */
export function meetingForm(page: Page) {
  const section = page.locator("#contact-form");
  const exact = { exact: true };
  return {
    section,
    fullName: section.getByLabel(words.fullNameLabel, exact),
    organization: section.getByLabel(words.organizationLabel, exact),
    email: section.getByLabel(words.emailLabel, exact),
    phone: section.getByLabel(words.phoneLabel, exact),
    fleetSize: section.getByLabel(words.fleetSizeLabel, exact),
    products: section.getByRole("group", { name: words.productsLegend }),
    meetingTimes: section.getByRole("group", { name: words.meetingTimeLegend }),
    challenges: section.getByLabel(words.challengesLabel, exact),
    product: (label: string) => section.getByRole("checkbox", { name: label, exact: true }),
    meetingTime: (label: string) => section.getByRole("radio", { name: label, exact: true }),
    submit: section.getByRole("button", {
      name: new RegExp(
        `^(?:${escapeRegExp(words.submitLabel)}|${escapeRegExp(words.submittingLabel)})$`,
      ),
    }),
    /** Every control a visitor can change or press. */
    controls: section
      .locator("form")
      .locator("input:not([tabindex='-1']), textarea, select, button"),
  };
}

/** What a visitor enters; products and meeting time by their values in content/meeting.yaml. */
export type FormInput = {
  fullName: string;
  organization: string;
  email: string;
  phone?: string;
  fleetSize?: string;
  products?: string[];
  meetingTime?: string;
  challenges?: string;
};

export async function fillMeetingForm(page: Page, input: FormInput): Promise<void> {
  const form = meetingForm(page);
  await form.fullName.fill(input.fullName);
  await form.organization.fill(input.organization);
  await form.email.fill(input.email);
  if (input.phone !== undefined) await form.phone.fill(input.phone);
  if (input.fleetSize !== undefined) await form.fleetSize.fill(input.fleetSize);
  for (const value of input.products ?? []) await form.product(productLabel(value)).check();
  if (input.meetingTime) await form.meetingTime(meetingTimeLabel(input.meetingTime)).check();
  if (input.challenges !== undefined) await form.challenges.fill(input.challenges);
}

/**
 * The row the database should hold for `input`. How the message is worded is unit-tested
 * (src/lib/meeting-request.test.ts); here the question is whether the browser sent it.
 */
export function expectedRecord(input: FormInput): ContactRecord {
  return buildContactRecord(
    { ...EMPTY_MEETING_REQUEST, ...input, products: input.products ?? [] },
    meetingTimeOptions,
  );
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
    inputs
      .filter((input) => input.checked)
      .map((input) => (input.labels?.[0]?.textContent ?? "").trim()),
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
  const option = productOptions.find((candidate) => candidate.value === value);
  if (!option) throw new Error(`no product option ${value} in content/meeting.yaml`);
  return option.label;
}

export function meetingTimeLabel(value: string): string {
  const option = meetingTimeOptions.find((candidate) => candidate.value === value);
  if (!option) throw new Error(`no meeting time ${value} in content/meeting.yaml`);
  return option.label;
}

/**
 * Holds the page's insert requests (not its warm-ups) until `release()` is called, so a test can look at the
 * submitting state. The request then reaches the real backend unchanged.
 */
export async function holdInserts(page: Page, backendUrl: string) {
  const held: Route[] = [];
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(`${backendUrl}/rest/v1/contacts*`, async (route) => {
    if (route.request().method() !== "POST" || isWarmUp(route.request())) return route.continue();
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
