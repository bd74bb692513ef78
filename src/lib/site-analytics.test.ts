import { screen } from "@testing-library/react";
import {
  campaignFrom,
  campaignTag,
  countVisit,
  mayCount,
  referrerDomain,
  siteEventCounter,
  siteEventEndpoint,
} from "./site-analytics";
import { builtPage, loadContentFile } from "../test-support/content-as-page-data";

const CHROME =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";

describe("campaignFrom", () => {
  test.each([
    [
      "?utm_source=linkedin&utm_medium=social&utm_campaign=expo-2025",
      { source: "linkedin", medium: "social", campaign: "expo-2025" },
    ],
    [
      "?utm_source=Newsletter&utm_campaign=Booth%20Invite%20Nov",
      { source: "newsletter", medium: "", campaign: "booth-invite-nov" },
    ],
    ["?src=flyer", { source: "flyer", medium: "qr", campaign: "" }],
    ["?src=Badge%20Back", { source: "badge-back", medium: "qr", campaign: "" }],
    ["?utm_source=linkedin&src=flyer", { source: "linkedin", medium: "", campaign: "" }],
    ["", { source: "", medium: "", campaign: "" }],
    ["?q=transit", { source: "", medium: "", campaign: "" }],
    ["?src=%3Cscript%3E", { source: "script", medium: "qr", campaign: "" }],
    ["?src=---", { source: "", medium: "", campaign: "" }],
  ])("%s", (search, expected) => {
    expect(campaignFrom(search)).toEqual(expected);
  });

  test("a tag keeps only what the database accepts, at most 40 characters", () => {
    expect(campaignTag("  Été 2025 — Booth #713 ")).toBe("t-2025--booth-713");
    expect(campaignTag(`_${"x".repeat(50)}`)).toBe("x".repeat(40));
    expect(campaignTag(null)).toBe("");
  });
});

describe("referrerDomain", () => {
  test.each([
    ["https://www.linkedin.com/feed/update/urn:li:activity:123?trk=x", "linkedin.com"],
    ["https://mail.google.com/mail/u/0/#inbox", "mail.google.com"],
    ["android-app://com.linkedin.android/", "com.linkedin.android"],
    ["https://bücher.example/", "xn--bcher-kva.example"],
    ["https://expo.example-transit.com/?utm_source=x", ""], // this site
    ["https://www.expo.example-transit.com/", ""], // this site with www.
    ["", ""],
    ["http://192.168.0.10:8080/intranet", ""],
    ["http://[::1]/", ""],
    ["http://localhost:8000/", ""],
    ["not a url", ""],
  ])("%s → %s", (referrer, expected) => {
    expect(referrerDomain(referrer, "expo.example-transit.com")).toBe(expected);
  });
});

describe("mayCount", () => {
  test.each<[string, Parameters<typeof mayCount>[0], string?]>([
    ["Global Privacy Control", { userAgent: CHROME, globalPrivacyControl: true }],
    ["Do Not Track (navigator)", { userAgent: CHROME, doNotTrack: "1" }],
    ["Do Not Track (old Firefox)", { userAgent: CHROME, doNotTrack: "yes" }],
    ["window.doNotTrack (older Safari and Edge)", { userAgent: CHROME }, "1"],
    ["a driven browser (navigator.webdriver)", { userAgent: CHROME, webdriver: true }],
    ["headless Chrome", { userAgent: CHROME.replace("Chrome/", "HeadlessChrome/") }],
    ["Lighthouse", { userAgent: `${CHROME} Chrome-Lighthouse` }],
    [
      "Googlebot",
      {
        userAgent: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
      },
    ],
    [
      "a link preview",
      {
        userAgent:
          "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php) Slackbot-LinkExpanding",
      },
    ],
  ])("not counted: %s", (_what, signals, windowDoNotTrack = undefined) => {
    // (The default keeps Jest from taking a third parameter for a `done` callback.)
    expect(mayCount({ userAgent: CHROME, webdriver: false, doNotTrack: null })).toBe(true); // a person
    expect(mayCount(signals, windowDoNotTrack)).toBe(false);
  });
});

describe("siteEventCounter", () => {
  const none = { source: "", medium: "", campaign: "" };

  test("one simple request per event: text/plain JSON, the key in the query, keepalive, no credentials; empty fields left out", () => {
    const fetchMock = jest.fn().mockResolvedValue({ status: 0, type: "opaque" });
    const endpoint = siteEventEndpoint("https://abc.supabase.co/", "anon key");
    expect(endpoint).toBe(
      "https://abc.supabase.co/rest/v1/rpc/record_site_event?apikey=anon%20key",
    );
    const count = siteEventCounter(endpoint, { ...none, source: "flyer", medium: "qr" }, fetchMock);
    count("cta", { cta: "hero" });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock).toHaveBeenCalledWith(endpoint, {
      method: "POST",
      body: '{"kind":"cta","source":"flyer","medium":"qr","cta":"hero"}',
      headers: { "Content-Type": "text/plain" },
      keepalive: true,
      mode: "no-cors",
      credentials: "omit",
    });
  });

  test("a failure is dropped quietly and not retried", async () => {
    const fetchMock = jest.fn().mockRejectedValue(new TypeError("Failed to fetch"));
    siteEventCounter("https://x.test/", none, fetchMock)("view");
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const throwing = jest.fn(() => {
      throw new TypeError("keepalive quota");
    });
    expect(() => siteEventCounter("https://x.test/", none, throwing)("view")).not.toThrow();
  });
});

const hero = loadContentFile("hero") as { ctaLabel: string };
const form = (loadContentFile("meeting") as { form: Record<string, string> }).form;

// The view with its campaign and referrer, the calls to action, one form start (not at the focus a
// call to action moves to the form's heading) and a request sent: e2e/tests/site-analytics.spec.ts;
// events before the counting code arrived and both outcomes: src/boot/page-boot.test.ts.
describe("countVisit on the built landing page", () => {
  const env = { ...process.env };
  beforeEach(() => builtPage());
  afterEach(() => {
    process.env = { ...env };
    document.body.innerHTML = "";
  });

  it("every call to action on the page has an id the database accepts", () => {
    const ids = [...document.querySelectorAll("a[href='#contact-form']")].map((link) =>
      link.getAttribute("data-cta"),
    );
    expect(ids.length).toBeGreaterThan(3);
    for (const id of ids)
      expect(id).toMatch(/^(hero|consulting|expo|footer|offering-[1-9][0-9]?)$/);
  });

  it("counts nothing in a build without Supabase settings", () => {
    process.env.GATSBY_SUPABASE_ANON_KEY = "anon-key";
    delete process.env.GATSBY_SUPABASE_URL;
    const fetchMock = jest.fn();
    window.fetch = fetchMock;
    countVisit(document);
    screen.getAllByRole("link", { name: hero.ctaLabel })[0]!.click();
    screen.getByLabelText(form.fullNameLabel!).focus();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
