import { screen } from "@testing-library/react";
import {
  builtPage,
  loadContentFile,
  meetingFormContent,
} from "../test-support/content-as-page-data";
import { FORM_OUTCOME_EVENT } from "../lib/page-markers";
import { bootPage, meetingFormContentIn, startSiteAnalytics } from "./page-boot";

const hero = loadContentFile("hero") as { ctaLabel: string };
const content = meetingFormContent();
const { form: words } = content;
const button = () => document.querySelector<HTMLButtonElement>("#meeting-form button")!;

let consoleError: jest.SpyInstance;
beforeEach(() => {
  consoleError = jest.spyOn(console, "error").mockImplementation(() => undefined);
  Element.prototype.scrollIntoView = jest.fn();
  window.matchMedia = jest.fn().mockReturnValue({ matches: false });
});
afterEach(() => {
  consoleError.mockRestore();
  document.body.innerHTML = "";
  window.history.replaceState(null, "", "/");
  jest.useRealTimers();
});

// On the not-found page it logs the missing path: e2e/tests/not-found.spec.ts.
describe("bootPage, the built pages' only script", () => {
  // Its mark (e2e/support/page.ts waits for it in every spec), the button enabled only by it
  // (form-start-up.spec) and the calls to action (landing.spec): in Chromium.
  it("on the landing page: the form works, its toasts load when the visitor gets there, and nothing is logged", async () => {
    builtPage();
    bootPage(document);
    expect(screen.queryByRole("region", { name: content.toastRegionLabel })).toBeNull();
    screen.getByLabelText(words.fullNameLabel).focus();
    expect(
      await screen.findByRole("region", { name: content.toastRegionLabel }, { timeout: 3000 }),
    ).toBeInTheDocument();

    const form = button().closest("form")!;
    const submit = new Event("submit", { bubbles: true, cancelable: true });
    form.dispatchEvent(submit);
    expect(submit.defaultPrevented).toBe(true); // never a native submit
    expect(button()).toHaveTextContent(words.submittingLabel);
    expect(consoleError).not.toHaveBeenCalled();
  }, 15_000); // the toasts' chunk (React) is compiled on first use

  it("carries the form's words in the HTML, as the build had them and nothing else of its section", () => {
    builtPage();
    const { form, productOptions, meetingTimeOptions, successToast, failureToast } = content;
    expect(meetingFormContentIn(document)).toEqual({
      form,
      productOptions,
      meetingTimeOptions,
      successToast,
      failureToast,
      toastRegionLabel: content.toastRegionLabel,
    });
  });
});

describe("startSiteAnalytics", () => {
  const env = { ...process.env };
  afterEach(() => {
    process.env = { ...env };
  });

  it("loads the counting code at idle; what the visitor did before it arrived still counts, and so do the form's outcomes", async () => {
    await new Promise((resolve) => setTimeout(resolve, 20)); // the earlier tests' pages counted nothing
    process.env.GATSBY_SUPABASE_URL = "https://abc.supabase.co";
    process.env.GATSBY_SUPABASE_ANON_KEY = "anon-key";
    const fetchMock = jest.fn().mockResolvedValue({ status: 0, type: "opaque" });
    window.fetch = fetchMock;
    builtPage("/?utm_source=newsletter&utm_medium=email&utm_campaign=invite");
    startSiteAnalytics(document);
    screen.getAllByRole("link", { name: hero.ctaLabel })[0]!.click();
    screen.getByLabelText(words.fullNameLabel).focus();
    expect(fetchMock).not.toHaveBeenCalled(); // nothing before the chunk
    await new Promise((resolve) => setTimeout(resolve, 50));
    const field = screen.getByLabelText(words.emailLabel);
    field.focus();
    for (const detail of ["request_failed", "request_sent", "view"])
      // "view" is no outcome: ignored
      field.dispatchEvent(new CustomEvent(FORM_OUTCOME_EVENT, { bubbles: true, detail }));
    const campaign = { source: "newsletter", medium: "email", campaign: "invite" };
    const sent = fetchMock.mock.calls.map(([, init]: [string, RequestInit]) => init.body);
    expect(sent.map((body) => JSON.parse(body as string))).toEqual([
      { kind: "view", ...campaign },
      { kind: "cta", ...campaign, cta: "hero" },
      { kind: "form_start", ...campaign },
      { kind: "request_failed", ...campaign },
      { kind: "request_sent", ...campaign },
    ]);
  });
});
