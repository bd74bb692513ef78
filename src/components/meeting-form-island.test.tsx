import React from "react";
import { act, screen } from "@testing-library/react";
import { renderToString } from "react-dom/server";
import { MeetingFormIsland } from "./meeting-form-island";
import { hydrateMeetingFormWhenNeeded, meetingFormContentIn } from "../boot/meeting-form-hydration";
import { MEETING_FORM_ISLAND_ID } from "../lib/meeting-form-island";
import { hydrateMeetingForm } from "./meeting-form-root";
import { CONTACT_FORM_ID } from "../lib/scroll-to-section";
import { meetingFormContent } from "../test-support/content-as-page-data";

const content = meetingFormContent();
const { form: words, productOptions } = content;

/** The form section as the built HTML holds it: the island inside the section calls to action lead to. */
function builtPage(): HTMLElement {
  const section = document.createElement("section");
  section.id = CONTACT_FORM_ID;
  section.innerHTML = renderToString(<MeetingFormIsland content={content} />);
  document.body.appendChild(section);
  return section;
}

afterEach(() => {
  document.body.innerHTML = "";
  jest.useRealTimers();
});

describe("the meeting form island", () => {
  it("is in the HTML with its button disabled until its script runs", () => {
    builtPage();
    expect(document.getElementById(MEETING_FORM_ISLAND_ID)).toContainElement(
      screen.getByLabelText(words.fullNameLabel),
    );
    expect(screen.getByRole("button", { name: words.submitLabel })).toBeDisabled();
  });

  it("carries the form's words in the HTML, as the build had them and nothing else of its section, for the hydration to read", () => {
    builtPage();
    const {
      form,
      productOptions,
      meetingTimeOptions,
      successToast,
      failureToast,
      toastRegionLabel,
    } = content;
    expect(meetingFormContentIn(document)).toEqual({
      form,
      productOptions,
      meetingTimeOptions,
      successToast,
      failureToast,
      toastRegionLabel,
    });
  });

  it("keeps what the visitor typed and ticked before it hydrated, and then enables the button", async () => {
    builtPage();
    const island = document.getElementById(MEETING_FORM_ISLAND_ID)!;
    const fullName = screen.getByLabelText<HTMLInputElement>(words.fullNameLabel);
    const challenges = screen.getByLabelText<HTMLTextAreaElement>(words.challengesLabel);
    const product = screen.getByRole<HTMLInputElement>("checkbox", {
      name: productOptions[1]!.label,
    });
    fullName.value = "Robin Early";
    challenges.value = "Typed before the form's script arrived.";
    product.checked = true;
    const problems: unknown[] = [];
    const consoleError = jest
      .spyOn(console, "error")
      .mockImplementation((...args: unknown[]) => problems.push(args));

    await act(async () => hydrateMeetingForm(island, content));

    expect(problems).toEqual([]);
    expect(screen.getByLabelText(words.fullNameLabel)).toBe(fullName); // the same nodes, adopted
    expect(fullName.value).toBe("Robin Early");
    expect(challenges.value).toBe("Typed before the form's script arrived.");
    expect(product.checked).toBe(true);
    expect(screen.getByRole("button", { name: words.submitLabel })).toBeEnabled();
    consoleError.mockRestore();
  });

  it("hydrates at the first focus in the form's section, not before", async () => {
    jest.useFakeTimers();
    Object.defineProperty(document, "readyState", { configurable: true, get: () => "loading" }); // the page has not finished loading
    try {
      const section = builtPage();
      hydrateMeetingFormWhenNeeded(document);
      await act(async () => jest.runOnlyPendingTimersAsync());
      expect(screen.getByRole("button", { name: words.submitLabel })).toBeDisabled();

      section.querySelector("input")!.focus();
      jest.useRealTimers();
      await act(async () => new Promise((resolve) => setTimeout(resolve, 50)));
      expect(await screen.findByRole("button", { name: words.submitLabel })).toBeEnabled();
    } finally {
      Reflect.deleteProperty(document, "readyState");
    }
  });
});
