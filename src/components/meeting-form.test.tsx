import React from "react";
import { act, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { ToastRegion } from "./toast-region";
import { MeetingForm } from "./meeting-form";
import type { ContactRecord } from "../lib/meeting-request";
import {
  editedContent,
  loadContent,
  lowerCaseTexts,
  meetingFormContent,
} from "../test-support/content-as-page-data";

/**
 * What only a unit test can show: every word of the form comes from content/meeting.yaml, and
 * the submit code starts loading when the visitor reaches the form. The form's behaviour with a
 * real browser and the real backend (validation, limits, submitting state, reset, values kept on
 * failure, double submits, the honeypot, the stored row, toasts) is tested once, end to end, in
 * e2e/tests/form-*.spec.ts; how the stored message is worded, in src/lib/meeting-request.test.ts.
 */
const contentFiles = loadContent();
const content = meetingFormContent(contentFiles);
const { form: words } = content;

type Deferred = { resolve: () => void; reject: (error: Error) => void };

function renderForm(submitRequest: (record: ContactRecord) => Promise<void>, files = contentFiles) {
  const prepareSubmit = jest.fn();
  const startProof = jest.fn();
  render(
    <>
      <MeetingForm
        content={meetingFormContent(files)}
        submitRequest={submitRequest}
        prepareSubmit={prepareSubmit}
        startProof={startProof}
      />
      <ToastRegion label={String(files.meeting?.toastRegionLabel)} />
    </>,
  );
  return { prepareSubmit, startProof };
}

function pendingSubmit() {
  let deferred: Deferred | undefined;
  const submitRequest = jest.fn(
    () =>
      new Promise<void>((resolve, reject) => {
        deferred = { resolve, reject };
      }),
  );
  return { submitRequest, settle: () => deferred as Deferred };
}

const REQUIRED = {
  fullName: "Ana Pérez",
  organization: "Valley Regional Transit",
  email: "ana@vrt.example.org",
};

async function fillRequiredFields(
  user: ReturnType<typeof userEvent.setup>,
  label: (text: string) => string,
) {
  await user.type(screen.getByLabelText(label(words.fullNameLabel)), REQUIRED.fullName);
  await user.type(screen.getByLabelText(label(words.organizationLabel)), REQUIRED.organization);
  await user.type(screen.getByLabelText(label(words.emailLabel)), REQUIRED.email);
}

describe("MeetingForm", () => {
  let consoleError: jest.SpyInstance;
  beforeEach(() => {
    consoleError = jest.spyOn(console, "error").mockImplementation(() => undefined);
  });
  afterEach(() => consoleError.mockRestore());

  it("uses only the content's words: labels, hints, legends, both button texts and both toasts", async () => {
    const user = userEvent.setup();
    const shout = (text: string) => `${text.toUpperCase()}!`;
    const shouted = editedContent(shout, contentFiles);
    const { submitRequest, settle } = pendingSubmit();
    renderForm(submitRequest, shouted);

    for (const label of [
      words.fullNameLabel,
      words.organizationLabel,
      words.emailLabel,
      words.phoneLabel,
      words.fleetSizeLabel,
      words.challengesLabel,
    ]) {
      expect(screen.getByLabelText(shout(label))).toBeInTheDocument();
    }
    expect(screen.getByLabelText(shout(words.fullNameLabel))).toHaveAttribute(
      "title",
      shout(words.fullNameHint),
    );
    expect(screen.getByLabelText(shout(words.fleetSizeLabel))).toHaveAttribute(
      "placeholder",
      shout(words.fleetSizePlaceholder),
    );
    expect(screen.getByRole("group", { name: shout(words.productsLegend) })).toBeInTheDocument();
    expect(screen.getByRole("group", { name: shout(words.meetingTimeLegend) })).toBeInTheDocument();
    expect(screen.getByText(shout(words.requiredNote))).toBeInTheDocument();

    await fillRequiredFields(user, shout);
    await user.click(screen.getByRole("button", { name: shout(words.submitLabel) }));
    expect(screen.getByRole("button", { name: shout(words.submittingLabel) })).toBeDisabled();
    await act(async () => settle().reject(new Error("offline")));
    expect(await screen.findByText(shout(content.failureToast.title))).toBeInTheDocument();
    expect(screen.getByText(shout(content.failureToast.text))).toBeInTheDocument();

    // The visitor tries again with the answers the form kept.
    await user.click(screen.getByRole("button", { name: shout(words.submitLabel) }));
    await act(async () => settle().resolve());
    expect(await screen.findByText(shout(content.successToast.title))).toBeInTheDocument();
    expect(screen.getByText(shout(content.successToast.text))).toBeInTheDocument();
    // Nothing else on the form or in the toasts has words of its own (the answers typed aside).
    const typed = new Set<string>(Object.values(REQUIRED));
    expect(lowerCaseTexts(document.body).filter((text) => !typed.has(text))).toEqual([]);
  });

  it("starts loading the submit code once, when the visitor first reaches the form", async () => {
    const user = userEvent.setup();
    const { prepareSubmit } = renderForm(jest.fn());
    expect(prepareSubmit).not.toHaveBeenCalled();
    await user.click(screen.getByLabelText(words.fullNameLabel));
    expect(prepareSubmit).not.toHaveBeenCalled(); // not while the focus itself is handled
    await waitFor(() => expect(prepareSubmit).toHaveBeenCalledTimes(1));
    await user.click(screen.getByLabelText(words.emailLabel));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(prepareSubmit).toHaveBeenCalledTimes(1);
  });

  it("starts the page proof at the first focus, and again at the first focus after a request was sent", async () => {
    const user = userEvent.setup();
    const { startProof } = renderForm(jest.fn(async () => undefined));
    await fillRequiredFields(user, (label) => label);
    await waitFor(() => expect(startProof).toHaveBeenCalledTimes(1)); // one proof for all the focuses of one request
    await user.click(screen.getByRole("button", { name: words.submitLabel }));
    expect(await screen.findByText(content.successToast.title)).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(startProof).toHaveBeenCalledTimes(1); // none for a request that may never come
    await user.click(screen.getByLabelText(words.fullNameLabel));
    await waitFor(() => expect(startProof).toHaveBeenCalledTimes(2));
  });
});
