import React from "react";
import { screen } from "@testing-library/react";
import { renderToString } from "react-dom/server";
import type { PageProps } from "gatsby";
import IndexPage from "../pages/index";
import { CONTACT_FORM_ID, scrollToSectionOnLinkClick } from "../lib/scroll-to-section";
import { FORM_OUTCOME_EVENT } from "../lib/site-analytics/events";
import { announceFormOutcome } from "../lib/site-analytics/form-outcome";
import { stopCounting } from "../lib/site-analytics/send";
import { indexPageDataFromContent, loadContentFile } from "../test-support/content-as-page-data";
import { countVisit } from "./count-visit";
import { startSiteAnalytics } from "./site-analytics";

const hero = loadContentFile("hero") as { ctaLabel: string };
const expo = loadContentFile("expo") as { ctaLabel: string };
const form = (
  loadContentFile("meeting") as {
    form: { fullNameLabel: string; emailLabel: string };
  }
).form;

/** The events sent, as the database would read them. */
function sentEvents(fetchMock: jest.Mock): Array<Record<string, string>> {
  return fetchMock.mock.calls.map(
    ([, init]) => JSON.parse((init as RequestInit).body as string) as Record<string, string>,
  );
}

describe("counting the visit (page-boot)", () => {
  let fetchMock: jest.Mock;
  const removers: Array<() => void> = [];
  const env = { ...process.env };

  beforeEach(() => {
    process.env.GATSBY_SUPABASE_URL = "https://abc.supabase.co";
    process.env.GATSBY_SUPABASE_ANON_KEY = "anon-key";
    fetchMock = jest.fn().mockResolvedValue({ status: 0, type: "opaque" });
    window.fetch = fetchMock;
    Element.prototype.scrollIntoView = jest.fn();
    window.matchMedia = jest.fn().mockReturnValue({ matches: false });
    document.body.innerHTML = renderToString(
      <IndexPage
        {...({
          data: indexPageDataFromContent(),
        } as unknown as PageProps<Queries.IndexPageQuery>)}
      />,
    );
    Object.defineProperty(document, "referrer", {
      configurable: true,
      get: () => "https://www.linkedin.com/feed/?trk=abc",
    });
  });
  afterEach(() => {
    stopCounting();
    removers.splice(0).forEach((remove) => remove());
    process.env = { ...env };
    Reflect.deleteProperty(document, "referrer");
    Reflect.deleteProperty(navigator, "globalPrivacyControl");
    Reflect.deleteProperty(navigator, "webdriver");
    window.history.replaceState(null, "", "/");
    document.body.innerHTML = "";
  });

  /** A fresh document listener per test: the click and focus listeners are on the document. */
  function start(): void {
    const listeners: Array<[string, EventListenerOrEventListenerObject]> = [];
    const add = document.addEventListener.bind(document);
    const spy = jest
      .spyOn(document, "addEventListener")
      .mockImplementation((type, listener, options) => {
        listeners.push([type, listener]);
        add(type, listener, options);
      });
    removers.push(scrollToSectionOnLinkClick(CONTACT_FORM_ID));
    countVisit(document);
    spy.mockRestore();
    removers.push(() =>
      listeners.forEach(([type, listener]) => document.removeEventListener(type, listener)),
    );
  }

  it("counts the view with its campaign and referrer domain, each call to action, and one form start at the first field", () => {
    window.history.replaceState(null, "", "/?src=flyer");
    start();
    expect(fetchMock.mock.calls[0]![0]).toBe(
      "https://abc.supabase.co/rest/v1/rpc/record_site_event?apikey=anon-key",
    );

    screen.getAllByRole("link", { name: hero.ctaLabel })[0]!.click(); // moves focus to the form's heading: not a start
    screen.getAllByRole("link", { name: expo.ctaLabel })[0]!.click();
    screen.getByLabelText(form.fullNameLabel).focus();
    screen.getByLabelText(form.emailLabel).focus();
    const field = screen.getByLabelText(form.emailLabel);
    announceFormOutcome(field, "request_failed");
    announceFormOutcome(field, "request_sent");
    field.dispatchEvent(new CustomEvent(FORM_OUTCOME_EVENT, { bubbles: true, detail: "view" })); // not an outcome: ignored

    expect(sentEvents(fetchMock)).toEqual([
      { kind: "view", source: "flyer", medium: "qr", referrer: "linkedin.com" },
      { kind: "cta", source: "flyer", medium: "qr", cta: "hero" },
      { kind: "cta", source: "flyer", medium: "qr", cta: "expo" },
      { kind: "form_start", source: "flyer", medium: "qr" },
      { kind: "request_failed", source: "flyer", medium: "qr" },
      { kind: "request_sent", source: "flyer", medium: "qr" },
    ]);
  });

  it("page-boot loads the counting code at idle, and what the visitor did before it arrived still counts", async () => {
    window.history.replaceState(
      null,
      "",
      "/?utm_source=newsletter&utm_medium=email&utm_campaign=invite",
    );
    const listeners: Array<[string, EventListenerOrEventListenerObject]> = [];
    const add = document.addEventListener.bind(document);
    jest.spyOn(document, "addEventListener").mockImplementation((type, listener, options) => {
      listeners.push([type, listener]);
      add(type, listener, options);
    });
    removers.push(() =>
      listeners.forEach(([type, listener]) => document.removeEventListener(type, listener)),
    );
    removers.push(scrollToSectionOnLinkClick(CONTACT_FORM_ID));
    startSiteAnalytics(document);
    screen.getAllByRole("link", { name: hero.ctaLabel })[0]!.click();
    screen.getByLabelText(form.fullNameLabel).focus();
    expect(fetchMock).not.toHaveBeenCalled(); // nothing before the chunk
    await new Promise((resolve) => setTimeout(resolve, 50));
    (document.addEventListener as jest.Mock).mockRestore();
    screen.getByLabelText(form.emailLabel).focus();
    const campaign = { source: "newsletter", medium: "email", campaign: "invite" };
    expect(sentEvents(fetchMock)).toEqual([
      { kind: "view", ...campaign, referrer: "linkedin.com" },
      { kind: "cta", ...campaign, cta: "hero" },
      { kind: "form_start", ...campaign },
    ]);
  });

  it("every call to action on the page has an id the database accepts", () => {
    const ids = [...document.querySelectorAll("a[href='#contact-form']")].map((link) =>
      link.getAttribute("data-cta"),
    );
    expect(ids.length).toBeGreaterThan(3);
    for (const id of ids)
      expect(id).toMatch(/^(hero|consulting|expo|footer|offering-[1-9][0-9]?)$/);
  });

  it.each([
    [
      "Global Privacy Control",
      () =>
        Object.defineProperty(navigator, "globalPrivacyControl", {
          configurable: true,
          value: true,
        }),
    ],
    [
      "navigator.webdriver",
      () =>
        Object.defineProperty(navigator, "webdriver", {
          configurable: true,
          value: true,
        }),
    ],
    ["a build without Supabase settings", () => delete process.env.GATSBY_SUPABASE_URL],
  ])("counts nothing with %s", (_what, arrange) => {
    arrange();
    start();
    screen.getAllByRole("link", { name: hero.ctaLabel })[0]!.click();
    screen.getByLabelText(form.fullNameLabel).focus();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
