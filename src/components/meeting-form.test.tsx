import React from "react";
import { act, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { ToastRegion } from "./toast-region";
import { MeetingForm } from "./meeting-form";
import { FIELD_LIMITS } from "../lib/field-limits";
import type { ContactRecord } from "../lib/meeting-request";

const productOptions = [
  { value: "MobilityDR", label: "MobilityDR (Microtransit Platform)" },
  { value: "OptiRun", label: "OptiRun (Scheduling Optimization)" },
  { value: "Trip Exchange", label: "Trip Exchange (Multi-Provider Coordination)" },
  { value: "Vámonos!", label: "Vámonos! (MaaS Platform)" },
  { value: "Structured DRT Consulting", label: "Structured DRT Consulting" },
];
const meetingTimeOptions = ["Day 1", "Day 2", "Day 3"].flatMap((day, index) => [
  { value: `day${index + 1}-morning`, label: `${day} Morning` },
  { value: `day${index + 1}-afternoon`, label: `${day} Afternoon` },
]);

type Deferred = { resolve: () => void; reject: (error: Error) => void };

function renderForm(submitRequest: (record: ContactRecord) => Promise<void>) {
  const prepareSubmit = jest.fn();
  render(
    <>
      <MeetingForm
        productOptions={productOptions}
        meetingTimeOptions={meetingTimeOptions}
        submitRequest={submitRequest}
        prepareSubmit={prepareSubmit}
      />
      <ToastRegion />
    </>,
  );
  return { prepareSubmit };
}

function pendingSubmit() {
  const calls: ContactRecord[] = [];
  let deferred: Deferred | undefined;
  const submitRequest = jest.fn(
    (record: ContactRecord) =>
      new Promise<void>((resolve, reject) => {
        calls.push(record);
        deferred = { resolve, reject };
      }),
  );
  return { submitRequest, calls, settle: () => deferred as Deferred };
}

async function fillRequiredFields(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText("Full Name *"), "Ana Pérez");
  await user.type(screen.getByLabelText("Transit Agency/Organization *"), "Valley Regional Transit");
  await user.type(screen.getByLabelText("Email *"), "ana@vrt.example.org");
}

function allControls() {
  const form = screen.getByRole("button", { name: /Schedul/ }).closest("form") as HTMLFormElement;
  return [...form.querySelectorAll<HTMLElement>("input, textarea, button")];
}

describe("MeetingForm", () => {
  let consoleError: jest.SpyInstance;
  beforeEach(() => {
    consoleError = jest.spyOn(console, "error").mockImplementation(() => undefined);
  });
  afterEach(() => consoleError.mockRestore());

  it("shows every field with its label, limits and the idle button", () => {
    renderForm(jest.fn());
    expect(screen.getByLabelText("Full Name *")).toBeRequired();
    expect(screen.getByLabelText("Transit Agency/Organization *")).toBeRequired();
    expect(screen.getByLabelText("Email *")).toHaveAttribute("type", "email");
    expect(screen.getByLabelText("Email *")).toBeRequired();
    expect(screen.getByLabelText("Phone")).not.toBeRequired();
    expect(screen.getByLabelText("Fleet Size")).toHaveAttribute("placeholder", "e.g., 25 vehicles");
    expect(screen.getByLabelText("Challenges/Questions").tagName).toBe("TEXTAREA");

    const products = screen.getByRole("group", { name: "Products of Interest" });
    expect(within(products).getAllByRole("checkbox").map((box) => box.getAttribute("value"))).toEqual(productOptions.map((o) => o.value));
    expect(within(products).getByLabelText("Vámonos! (MaaS Platform)")).not.toBeChecked();

    const times = screen.getByRole("group", { name: "Preferred Meeting Time" });
    expect(within(times).getAllByRole("radio").map((radio) => (radio as HTMLInputElement).labels?.[0]?.textContent)).toEqual([
      "Day 1 Morning",
      "Day 1 Afternoon",
      "Day 2 Morning",
      "Day 2 Afternoon",
      "Day 3 Morning",
      "Day 3 Afternoon",
    ]);

    expect(screen.getByLabelText("Full Name *")).toHaveAttribute("maxLength", String(FIELD_LIMITS.fullName));
    expect(screen.getByLabelText("Transit Agency/Organization *")).toHaveAttribute("maxLength", String(FIELD_LIMITS.organization));
    expect(screen.getByLabelText("Email *")).toHaveAttribute("maxLength", String(FIELD_LIMITS.email));
    expect(screen.getByLabelText("Phone")).toHaveAttribute("maxLength", String(FIELD_LIMITS.phone));
    expect(screen.getByLabelText("Fleet Size")).toHaveAttribute("maxLength", String(FIELD_LIMITS.fleetSize));
    expect(screen.getByLabelText("Challenges/Questions")).toHaveAttribute("maxLength", String(FIELD_LIMITS.challenges));

    expect(screen.getByRole("button", { name: "Schedule My CTAA Meeting" })).toBeEnabled();
  });

  it("lets the browser refuse whitespace-only required answers", () => {
    renderForm(jest.fn());
    const fullName = screen.getByLabelText<HTMLInputElement>("Full Name *");
    const pattern = new RegExp(`^(?:${fullName.pattern})$`);
    expect(pattern.test("   ")).toBe(false);
    expect(pattern.test(" Ana ")).toBe(true);
    expect(screen.getByLabelText("Transit Agency/Organization *")).toHaveAttribute("pattern", fullName.pattern);
  });

  it("disables everything and reads 'Scheduling...' while submitting, then resets and confirms", async () => {
    const user = userEvent.setup();
    const { submitRequest, calls, settle } = pendingSubmit();
    renderForm(submitRequest);

    await fillRequiredFields(user);
    await user.type(screen.getByLabelText("Phone"), "(208) 555-0101");
    await user.type(screen.getByLabelText("Fleet Size"), "25 vehicles");
    await user.click(screen.getByLabelText("Trip Exchange (Multi-Provider Coordination)"));
    await user.click(screen.getByLabelText("MobilityDR (Microtransit Platform)"));
    await user.click(screen.getByLabelText("Day 2 Afternoon"));
    await user.type(screen.getByLabelText("Challenges/Questions"), "Low productivity.");
    await user.click(screen.getByRole("button", { name: "Schedule My CTAA Meeting" }));

    expect(screen.getByRole("button", { name: "Scheduling..." })).toBeDisabled();
    for (const control of allControls()) expect(control).toBeDisabled();
    expect(calls).toEqual([
      {
        name: "Ana Pérez",
        email: "ana@vrt.example.org",
        organization: "Valley Regional Transit",
        message: [
          "Phone: (208) 555-0101",
          "Fleet Size: 25 vehicles",
          "Products of Interest: MobilityDR, Trip Exchange",
          "Preferred Meeting Time: Day 2 Afternoon",
          "Challenges/Questions: Low productivity.",
        ].join("\n"),
      },
    ]);

    await act(async () => settle().resolve());

    expect(await screen.findByText("Meeting Request Submitted Successfully!")).toBeInTheDocument();
    expect(screen.getByText("We'll contact you soon to schedule your meeting at CTAA Expo 2025 Booth #713.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Schedule My CTAA Meeting" })).toBeEnabled();
    expect(screen.getByLabelText("Full Name *")).toHaveValue("");
    expect(screen.getByLabelText("Phone")).toHaveValue("");
    expect(screen.getByLabelText("MobilityDR (Microtransit Platform)")).not.toBeChecked();
    expect(screen.getByLabelText("Day 2 Afternoon")).not.toBeChecked();
    expect(screen.getByLabelText("Challenges/Questions")).toHaveValue("");
    expect(consoleError).not.toHaveBeenCalled();
  });

  it("keeps every value, logs the error and shows the failure toast when the insert fails", async () => {
    const user = userEvent.setup();
    const { submitRequest, settle } = pendingSubmit();
    renderForm(submitRequest);

    await fillRequiredFields(user);
    await user.click(screen.getByLabelText("OptiRun (Scheduling Optimization)"));
    await user.click(screen.getByLabelText("Day 3 Morning"));
    await user.type(screen.getByLabelText("Challenges/Questions"), "Keep me.");
    await user.click(screen.getByRole("button", { name: "Schedule My CTAA Meeting" }));
    const failure = new Error("Meeting request not sent: http://127.0.0.1:9 could not be reached.");
    await act(async () => settle().reject(failure));

    const title = await screen.findByText("Submission Failed");
    expect(screen.getByText("There was an error submitting your form. Please try again or contact us directly.")).toBeInTheDocument();
    expect(title.closest(".Toastify__toast")).toHaveClass("Toastify__toast--error");
    expect(consoleError).toHaveBeenCalledWith("Meeting request submission failed:", failure.message, failure);

    expect(screen.getByLabelText("Full Name *")).toHaveValue("Ana Pérez");
    expect(screen.getByLabelText("Transit Agency/Organization *")).toHaveValue("Valley Regional Transit");
    expect(screen.getByLabelText("Email *")).toHaveValue("ana@vrt.example.org");
    expect(screen.getByLabelText("OptiRun (Scheduling Optimization)")).toBeChecked();
    expect(screen.getByLabelText("Day 3 Morning")).toBeChecked();
    expect(screen.getByLabelText("Challenges/Questions")).toHaveValue("Keep me.");
    expect(screen.getByRole("button", { name: "Schedule My CTAA Meeting" })).toBeEnabled();
  });

  it("sends nothing more when submitted again while a submission is under way", async () => {
    const user = userEvent.setup();
    const { submitRequest, settle } = pendingSubmit();
    renderForm(submitRequest);
    await fillRequiredFields(user);
    const form = screen.getByRole("button", { name: "Schedule My CTAA Meeting" }).closest("form") as HTMLFormElement;

    await user.click(screen.getByRole("button", { name: "Schedule My CTAA Meeting" }));
    act(() => {
      form.requestSubmit();
      form.requestSubmit();
    });
    expect(submitRequest).toHaveBeenCalledTimes(1);
    await act(async () => settle().resolve());
    expect(await screen.findByText("Meeting Request Submitted Successfully!")).toBeInTheDocument();
  });

  it("shows a bot that fills the hidden field the normal success, and sends nothing", async () => {
    const user = userEvent.setup();
    const submitRequest = jest.fn(() => Promise.resolve());
    renderForm(submitRequest);
    await fillRequiredFields(user);
    const honeypot = document.querySelector<HTMLInputElement>('input[name="reference_code"]') as HTMLInputElement;
    expect(honeypot).toHaveAttribute("tabindex", "-1");
    expect(honeypot.closest('[aria-hidden="true"]')).not.toBeNull();
    honeypot.value = "http://spam.example";

    await user.click(screen.getByRole("button", { name: "Schedule My CTAA Meeting" }));

    expect(await screen.findByText("Meeting Request Submitted Successfully!")).toBeInTheDocument();
    expect(submitRequest).not.toHaveBeenCalled();
    expect(honeypot.value).toBe("");
  });

  it("starts loading the submit code once, when the visitor first reaches the form", async () => {
    const user = userEvent.setup();
    const { prepareSubmit } = renderForm(jest.fn());
    expect(prepareSubmit).not.toHaveBeenCalled();
    await user.click(screen.getByLabelText("Full Name *"));
    await user.click(screen.getByLabelText("Email *"));
    expect(prepareSubmit).toHaveBeenCalledTimes(1);
  });

  it("shows at most three toasts at once", async () => {
    const user = userEvent.setup();
    renderForm(() => Promise.reject(new Error("offline")));
    await fillRequiredFields(user);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      await user.click(screen.getByRole("button", { name: "Schedule My CTAA Meeting" }));
      await waitFor(() => expect(screen.getByRole("button", { name: "Schedule My CTAA Meeting" })).toBeEnabled());
    }
    await waitFor(() => expect(screen.getAllByText("Submission Failed")).toHaveLength(3));
  });
});
