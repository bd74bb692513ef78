/**
 * The meeting form as a visitor meets it, found by the names content/meeting.yaml gives its
 * controls, and the steps the form specs share: fill, submit, break the backend's answer, and
 * read back what the form shows and what the database stored.
 */
import type { Locator, Page, Request, Route } from "@playwright/test";
import {
  buildContactRecord,
  EMPTY_MEETING_REQUEST,
  type MeetingRequestValues,
} from "../../src/lib/meeting-request";
import { content, escapeRegExp } from "./content";
import { BACKEND_URL, expect, isWarmUp, type Backend } from "./fixtures";
import { holdRequests } from "./page";

const { form: words, productOptions, meetingTimeOptions } = content.meeting;

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

/** Opens the landing page and scrolls to the form, as a visitor who came to ask for a meeting. */
export async function openForm(page: Page) {
  await page.goto("/");
  const form = meetingForm(page);
  await form.section.scrollIntoViewIfNeeded();
  return form;
}

/** What a visitor enters; products and meeting time by their values in content/meeting.yaml. */
export type FormInput = Pick<MeetingRequestValues, "fullName" | "organization" | "email"> &
  Partial<MeetingRequestValues>;

/** The required answers, with an address of their own (the database takes five per address and hour). */
export function answers(tag: string, more: Partial<FormInput> = {}): FormInput {
  return {
    fullName: "Dana Whitfield",
    organization: "Valley Regional Transit",
    email: uniqueEmail(tag),
    ...more,
  };
}

/** Every field answered: the first and the third product, the fourth meeting time. */
export function everyAnswer(tag: string): FormInput {
  return answers(tag, {
    phone: "555-0142",
    fleetSize: "12 vehicles",
    products: [productOptions[0]!.value, productOptions[2]!.value],
    meetingTime: meetingTimeOptions[3]!.value,
    challenges: "Dispatch for a new zone.",
  });
}

export async function fillMeetingForm(page: Page, input: Partial<FormInput>): Promise<void> {
  const form = meetingForm(page);
  for (const field of ["fullName", "organization", "email", "phone", "fleetSize"] as const) {
    if (input[field] !== undefined) await form[field].fill(input[field]);
  }
  for (const value of input.products ?? [])
    await form.product(labelOf(productOptions, value)).check();
  if (input.meetingTime)
    await form.meetingTime(labelOf(meetingTimeOptions, input.meetingTime)).check();
  if (input.challenges !== undefined) await form.challenges.fill(input.challenges);
}

function labelOf(options: readonly { value: string; label: string }[], value: string): string {
  const option = options.find((candidate) => candidate.value === value);
  if (!option) throw new Error(`No option ${value} in content/meeting.yaml.`);
  return option.label;
}

/** Presses the submit button and waits for the success toast. */
export async function submitAndSucceed(page: Page): Promise<void> {
  await meetingForm(page).submit.click();
  await expect(toast(page, content.meeting.successToast.title)).toBeVisible();
}

/**
 * The database holds exactly the one request `input` makes. How the message is worded is
 * unit-tested (src/lib/meeting-request.test.ts); here the question is whether the browser sent it.
 */
export async function expectStored(backend: Backend, input: FormInput): Promise<void> {
  const record = buildContactRecord({ ...EMPTY_MEETING_REQUEST, ...input }, meetingTimeOptions);
  expect(await backend.rows()).toEqual([expect.objectContaining(record)]);
}

/**
 * What the form shows a person: every value, tick and choice and the button, as the accessibility
 * tree has them. Compared before and after a submission.
 */
export function formShows(page: Page): Promise<string> {
  return meetingForm(page).section.locator("form").ariaSnapshot();
}

/** A toast, found as a screen reader announces it (react-toastify gives each one role="alert"). */
export function toast(page: Page, title: string): Locator {
  return page.getByRole("alert").filter({ hasText: title });
}

/** Answers every POST of the page to the contacts endpoint (warm-ups too) with `answer`. */
export async function answerInserts(
  page: Page,
  answer: (route: Route) => Promise<void> | void,
): Promise<void> {
  await page.route(`${BACKEND_URL}/rest/v1/contacts*`, (route) =>
    route.request().method() === "POST" ? answer(route) : route.continue(),
  );
}

/** Holds the page's insert requests (not its warm-ups) until `release()`, to see the submitting state. */
export function holdInserts(page: Page) {
  const isInsert = (request: Request) => request.method() === "POST" && !isWarmUp(request);
  return holdRequests(page, `${BACKEND_URL}/rest/v1/contacts*`, isInsert);
}

export function uniqueEmail(tag: string): string {
  return `${tag}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@agency.example.org`;
}
