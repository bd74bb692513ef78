import { campaignFrom, campaignTag } from "./campaign";
import { mayCount } from "./may-count";
import { referrerDomain } from "./referrer";
import { countSiteEvent, siteEventEndpoint, startCounting, stopCounting } from "./send";

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
  test("a person's browser is counted", () => {
    expect(mayCount({ userAgent: CHROME, webdriver: false, doNotTrack: null })).toBe(true);
  });
  test.each([
    ["Global Privacy Control", { userAgent: CHROME, globalPrivacyControl: true }],
    ["Do Not Track (navigator)", { userAgent: CHROME, doNotTrack: "1" }],
    ["Do Not Track (old Firefox)", { userAgent: CHROME, doNotTrack: "yes" }],
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
  ])("not counted: %s", (_what, signals) => {
    expect(mayCount(signals)).toBe(false);
  });
  test("window.doNotTrack (older Safari and Edge) counts too", () => {
    expect(mayCount({ userAgent: CHROME }, "1")).toBe(false);
  });
});

describe("countSiteEvent", () => {
  afterEach(() => stopCounting());

  test("does nothing when counting is off", () => {
    const fetchMock = jest.fn().mockResolvedValue({ status: 0, type: "opaque" });
    startCounting("https://x.test/", { source: "", medium: "", campaign: "" }, fetchMock);
    stopCounting();
    countSiteEvent("view");
    expect(fetchMock).not.toHaveBeenCalled();
  });

  test("one simple request per event: text/plain JSON, the key in the query, keepalive, no credentials; empty fields left out", () => {
    const fetchMock = jest.fn().mockResolvedValue({ status: 0, type: "opaque" });
    const endpoint = siteEventEndpoint("https://abc.supabase.co/", "anon key");
    expect(endpoint).toBe(
      "https://abc.supabase.co/rest/v1/rpc/record_site_event?apikey=anon%20key",
    );
    startCounting(endpoint, { source: "flyer", medium: "qr", campaign: "" }, fetchMock);
    countSiteEvent("cta", { cta: "hero" });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe(endpoint);
    expect(init).toEqual({
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
    startCounting(
      "https://x.test/rest/v1/rpc/record_site_event?apikey=k",
      { source: "", medium: "", campaign: "" },
      fetchMock,
    );
    countSiteEvent("view");
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const throwing = jest.fn(() => {
      throw new TypeError("keepalive quota");
    });
    startCounting(
      "https://x.test/",
      { source: "", medium: "", campaign: "" },
      throwing as unknown as typeof fetch,
    );
    expect(() => countSiteEvent("view")).not.toThrow();
  });
});
