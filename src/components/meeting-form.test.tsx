import React from "react";
import { act, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MeetingForm } from "./meeting-form";
import { HONEYPOT_FIELD_NAME } from "../lib/meeting-request";
import type { ContactRecord } from "../lib/submit-meeting-request";
import { FORM_OUTCOME_EVENT } from "../lib/page-markers";
import {
  editedContent,
  loadContent,
  lowerCaseTexts,
  meetingFormContent,
} from "../test-support/content-as-page-data";

/**
 * The form and what makes it work (src/lib/live-form.ts), the network replaced: its words, the
 * submitting state and outcomes, when the submit code and the page proof start. In a real browser
 * against the real backend: e2e/tests/form-*.spec.ts; the stored message: meeting-request.test.ts.
 */
const contentFiles = loadContent();
const content = meetingFormContent(contentFiles);
const { form: words } = content;
const REQUIRED = {
  fullName: "Ana Pérez",
  organization: "Valley Regional Transit",
  email: "ana@vrt.example.org",
};

/** A submitRequest whose outcome the test decides, one request at a time. */
function pendingSubmit() {
  const settle: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];
  const submitRequest = jest.fn(
    (_record: ContactRecord) =>
      new Promise<void>((resolve, reject) => void settle.push({ resolve, reject })),
  );
  return { submitRequest, settle: () => settle.shift()! };
}

function renderForm(
  submitRequest: (record: ContactRecord) => Promise<void> = pendingSubmit().submitRequest,
  files = contentFiles,
) {
  const seams = { submitRequest, prepareSubmit: jest.fn(), startProof: jest.fn() };
  render(<MeetingForm content={meetingFormContent(files)} {...seams} />);
  return seams;
}

async function fillRequiredFields(
  user: ReturnType<typeof userEvent.setup>,
  label = (text: string) => text,
) {
  await user.type(screen.getByLabelText(label(words.fullNameLabel)), REQUIRED.fullName);
  await user.type(screen.getByLabelText(label(words.organizationLabel)), REQUIRED.organization);
  await user.type(screen.getByLabelText(label(words.emailLabel)), REQUIRED.email);
}

const button = (label: string) => screen.getByRole("button", { name: label });

/** The outcomes the form announced to the page's counting code in this test. */
const outcomes: unknown[] = [];
document.addEventListener(FORM_OUTCOME_EVENT, (event) =>
  outcomes.push((event as CustomEvent).detail),
);

let consoleError: jest.SpyInstance;
beforeEach(() => {
  consoleError = jest.spyOn(console, "error").mockImplementation(() => undefined);
  outcomes.length = 0;
});
afterEach(() => {
  consoleError.mockRestore();
  document.body.innerHTML = "";
});

// A second submit while one is on its way, the reset form: e2e form-submit.spec.ts; what the console
// says, the answers kept and sent again: e2e form-failures.spec.ts.
it("uses only the content's words (labels, hints, legends, buttons, toasts) through a failure and a retry, and tells the page both outcomes", async () => {
  const user = userEvent.setup();
  const shout = (text: string) => `${text.toUpperCase()}!`;
  const { submitRequest, settle } = pendingSubmit();
  renderForm(submitRequest, editedContent(shout, contentFiles));

  // Each label and legend names its control: e2e form-submit.spec.ts ("the fields as the content
  // gives them"); here, where the hint and the placeholder go.
  expect(screen.getByLabelText(shout(words.fullNameLabel))).toHaveAttribute(
    "title",
    shout(words.fullNameHint),
  );
  expect(screen.getByLabelText(shout(words.fleetSizeLabel))).toHaveAttribute(
    "placeholder",
    shout(words.fleetSizePlaceholder),
  );

  await fillRequiredFields(user, shout);
  await user.click(button(shout(words.submitLabel)));
  expect(button(shout(words.submittingLabel))).toBeDisabled();
  const form = document.querySelector("form")!;
  expect(form).toHaveAttribute("aria-busy", "true");
  await act(async () => settle().reject(new Error("offline")));
  expect(await screen.findByText(shout(content.failureToast.title))).toBeInTheDocument();
  expect(screen.getByText(shout(content.failureToast.text))).toBeInTheDocument();
  expect(screen.getByRole("region", { name: shout(content.toastRegionLabel) })).toBeVisible();
  expect(form).toHaveAttribute("aria-busy", "false");

  await user.click(button(shout(words.submitLabel)));
  await act(async () => settle().resolve());
  expect(await screen.findByText(shout(content.successToast.title))).toBeInTheDocument();
  expect(screen.getByText(shout(content.successToast.text))).toBeInTheDocument();
  expect(outcomes).toEqual(["request_failed", "request_sent"]);
  // Nothing else on the form or in the toasts has words of its own (the answers typed aside).
  const typed = new Set<string>(Object.values(REQUIRED));
  expect(lowerCaseTexts(document.body).filter((text) => !typed.has(text))).toEqual([]);
}, 15_000);

it("sends nothing for a bot that filled the hidden field, shows it success, and counts nothing", async () => {
  const user = userEvent.setup();
  const { submitRequest } = renderForm();
  await fillRequiredFields(user);
  document.querySelector<HTMLInputElement>(`[name=${HONEYPOT_FIELD_NAME}]`)!.value = "spam";
  await user.click(button(words.submitLabel));
  expect(await screen.findByText(content.successToast.title)).toBeInTheDocument();
  expect(submitRequest).not.toHaveBeenCalled();
  expect(outcomes).toEqual([]);
});

it("starts loading the submit code once, after the first focus has been answered, and the page proof at the first focus and again at the first focus after a request was sent", async () => {
  const user = userEvent.setup();
  const { prepareSubmit, startProof } = renderForm(jest.fn(async () => undefined));
  expect(prepareSubmit).not.toHaveBeenCalled();
  screen.getByLabelText(words.fullNameLabel).focus();
  expect(prepareSubmit).not.toHaveBeenCalled(); // not while the focus itself is handled
  await waitFor(() => expect(prepareSubmit).toHaveBeenCalledTimes(1));
  await fillRequiredFields(user);
  await waitFor(() => expect(startProof).toHaveBeenCalledTimes(1)); // one proof for all the focuses of one request
  await user.click(button(words.submitLabel));
  expect(await screen.findByText(content.successToast.title)).toBeInTheDocument();
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(prepareSubmit).toHaveBeenCalledTimes(1);
  expect(startProof).toHaveBeenCalledTimes(1); // none for a request that may never come
  await user.click(screen.getByLabelText(words.fullNameLabel));
  await waitFor(() => expect(startProof).toHaveBeenCalledTimes(2));
});
