import {
  KEEP_WARM_EVERY_MS,
  prepareContactsInsert,
  keepSubmitWarm,
  ON_FORM_FOR_MS,
} from "./keep-submit-warm";
import { WARMED_UP_ATTRIBUTE } from "./page-markers";
import { installFakeIntersectionObserver } from "../test-support/intersection-observer";

function formPage() {
  document.body.innerHTML = `<section id="contact-form"><form><input name="fullName"><button type="submit">Send</button></form></section>`;
  return { section: document.querySelector("section")!, form: document.querySelector("form")! };
}

let visibility: DocumentVisibilityState = "visible";
beforeAll(() => {
  Object.defineProperty(document, "visibilityState", { configurable: true, get: () => visibility });
});

beforeEach(() => {
  jest.useFakeTimers();
  visibility = "visible";
});

afterEach(() => {
  jest.useRealTimers();
  document.body.innerHTML = "";
});

/** What a visitor does in the form: the events keepSubmitWarm counts as being on it. */
const typeIn = (form: HTMLFormElement) =>
  form.querySelector("input")!.dispatchEvent(new Event("input", { bubbles: true }));
const focusIn = (form: HTMLFormElement) =>
  form.querySelector("input")!.dispatchEvent(new FocusEvent("focusin", { bubbles: true }));

describe("keepSubmitWarm", () => {
  /** keepSubmitWarm on a fresh form page, its first warm-up just sent; `warm` records the repeats. */
  function keepingWarm() {
    const { section, form } = formPage();
    const inView = installFakeIntersectionObserver();
    const warm = jest.fn();
    const stop = keepSubmitWarm(section, form, warm, performance.now());
    return { form, warm, inView, stop };
  }

  it("repeats the warm-up every KEEP_WARM_EVERY_MS while the form is in view, counting the rounds; stops ON_FORM_FOR_MS after reaching the form without a focus or an input, and starts again with one", () => {
    const { form, warm, inView } = keepingWarm();
    inView(true);

    jest.advanceTimersByTime(KEEP_WARM_EVERY_MS - 1);
    expect(warm).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(warm).toHaveBeenLastCalledWith(1);
    jest.advanceTimersByTime(KEEP_WARM_EVERY_MS);
    expect(warm).toHaveBeenLastCalledWith(2);
    expect(KEEP_WARM_EVERY_MS).toBeLessThan(5000); // Chromium keeps a preflight without Max-Age 5 s

    jest.advanceTimersByTime(ON_FORM_FOR_MS + 3 * KEEP_WARM_EVERY_MS);
    const repeats = warm.mock.calls.length;
    expect(repeats).toBe(Math.floor(ON_FORM_FOR_MS / KEEP_WARM_EVERY_MS));

    typeIn(form);
    jest.advanceTimersByTime(0);
    expect(warm).toHaveBeenCalledTimes(repeats + 1); // the last one is long stale: at once
    jest.advanceTimersByTime(KEEP_WARM_EVERY_MS);
    expect(warm).toHaveBeenCalledTimes(repeats + 2);
  });

  it("does nothing while the form is out of view or the tab hidden", () => {
    const { form, warm, inView } = keepingWarm();
    inView(false);
    focusIn(form);
    jest.advanceTimersByTime(3 * KEEP_WARM_EVERY_MS);
    expect(warm).not.toHaveBeenCalled();

    visibility = "hidden";
    inView(true);
    jest.advanceTimersByTime(3 * KEEP_WARM_EVERY_MS);
    expect(warm).not.toHaveBeenCalled();
    visibility = "visible";
    document.dispatchEvent(new Event("visibilitychange"));
    focusIn(form);
    jest.advanceTimersByTime(0);
    expect(warm).toHaveBeenCalledTimes(1);
  });

  it("stops at a submit until the next focus or input, and for good when stopped", () => {
    const { form, warm, inView, stop } = keepingWarm();
    inView(true);
    form.dispatchEvent(new Event("submit", { bubbles: true, cancelable: true }));
    jest.advanceTimersByTime(3 * KEEP_WARM_EVERY_MS);
    expect(warm).not.toHaveBeenCalled();

    typeIn(form);
    jest.advanceTimersByTime(0);
    expect(warm).toHaveBeenCalledTimes(1);
    stop();
    typeIn(form);
    jest.advanceTimersByTime(3 * KEEP_WARM_EVERY_MS);
    expect(warm).toHaveBeenCalledTimes(1);
  });
});

describe("prepareContactsInsert", () => {
  const env = { ...process.env };
  beforeEach(() => {
    process.env.GATSBY_SUPABASE_URL = "https://abc.supabase.co";
    process.env.GATSBY_SUPABASE_ANON_KEY = "anon";
  });
  afterEach(() => {
    process.env = { ...env };
  });

  function withFetch() {
    const { section, form } = formPage();
    const inView = installFakeIntersectionObserver();
    const fetch = jest.fn().mockResolvedValue({ ok: true, status: 201 });
    window.fetch = fetch;
    return { section, form, inView, fetch };
  }

  it("goes on from the loader's warm-up, whose time the section carries", () => {
    const { section, form, inView, fetch } = withFetch();
    section.setAttribute(WARMED_UP_ATTRIBUTE, String(performance.now() - 1000));
    prepareContactsInsert(section, form);
    inView(true);
    expect(fetch).not.toHaveBeenCalled();
    jest.advanceTimersByTime(KEEP_WARM_EVERY_MS - 1000);
    expect(fetch).toHaveBeenCalledTimes(1); // its URL and headers: e2e form-start-up.spec.ts
  });

  it("warms at once where no loader did (gatsby develop), and not at all without Supabase settings", () => {
    const { section, form, fetch } = withFetch();
    prepareContactsInsert(section, form);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect((fetch.mock.calls[0] as [string, RequestInit])[1].headers).not.toHaveProperty(
      "x-warm-up-a",
    );

    delete process.env.GATSBY_SUPABASE_ANON_KEY;
    const other = withFetch();
    prepareContactsInsert(other.section, other.form);
    expect(other.fetch).not.toHaveBeenCalled();
  });
});
