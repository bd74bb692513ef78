/**
 * Site analytics in Chromium against the real local backend (docs/analytics.md): scripted visits
 * with campaign tags give exact counts per campaign; an automated browser is not counted; nothing
 * is stored in the browser.
 *
 * Playwright's Chromium presents itself as automated (`navigator.webdriver`, "HeadlessChrome"),
 * which the page does not count. The visits that must count present as a person's browser.
 */
import type { BrowserContext, Page, Request } from "@playwright/test";
import { isoDate, readSiteReport } from "../../tools/site-analytics/report-data";
import { content } from "../support/content";
import { expect, test } from "../support/fixtures";
import { answers, fillMeetingForm, meetingForm, submitAndSucceed } from "../support/form";
import { pageBootHasRun } from "../support/page";

const PERSON_UA =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const RPC = /\/rest\/v1\/rpc\/record_site_event\?apikey=/;
const ANALYTICS_CHUNK = /\/site-analytics-[0-9a-f]+\.js$/;

test.use({ userAgent: PERSON_UA });

/** `navigator.webdriver` false, as in a person's browser. */
async function asPerson(context: BrowserContext): Promise<void> {
  await context.addInitScript(() =>
    Object.defineProperty(Navigator.prototype, "webdriver", {
      configurable: true,
      get: () => false,
    }),
  );
}

/** The events the pages of `context` send, as the database reads them. */
function recordEvents(context: BrowserContext): Request[] {
  const events: Request[] = [];
  context.on("request", (request) => {
    if (request.method() === "POST" && RPC.test(request.url())) events.push(request);
  });
  return events;
}

const sentEvent = (page: Page, text: string) =>
  page.waitForRequest(
    (request) => RPC.test(request.url()) && request.postData()?.includes(text) === true,
  );

/** Opens `path` and waits until the view was sent or, when none may be, until the counting code had its chance. */
async function visit(page: Page, path: string, { referer = "", counted = true } = {}) {
  const sent = counted ? sentEvent(page, '"view"') : undefined;
  const chunk = page.waitForResponse(ANALYTICS_CHUNK);
  await page.goto(path, referer ? { referer } : {});
  await pageBootHasRun(page);
  await chunk;
  await sent;
}

async function eventSettled(page: Page, kind: string, trigger: () => Promise<void>) {
  const sent = sentEvent(page, `"kind":"${kind}"`);
  await trigger();
  await sent;
}

const ctaLink = (page: Page, name: string) => page.getByRole("link", { name, exact: true }).first();

function campaignRow(source: string, medium: string, campaign: string, counts: number[]) {
  const [views, ctaTaps, formStarts, requests] = counts;
  const none = { failures: 0, meetings: 0 };
  return { source, medium, campaign, views, ctaTaps, formStarts, requests, ...none };
}

test("scripted visits with different campaign tags give exact counts per campaign, and nothing is kept in the browser", async ({
  page,
  context,
  backend,
}) => {
  await asPerson(context);
  const events = recordEvents(context);

  // A LinkedIn post: view, the hero's call to action, the form, a request.
  await visit(page, "/?utm_source=LinkedIn&utm_medium=social&utm_campaign=expo-2025", {
    referer: "https://www.linkedin.com/feed/update/1",
  });
  await eventSettled(page, "cta", () => ctaLink(page, content.hero.ctaLabel).click());
  await eventSettled(page, "form_start", () => meetingForm(page).fullName.focus());
  await fillMeetingForm(page, answers("analytics"));
  await eventSettled(page, "request_sent", () => submitAndSucceed(page));

  // Two scans of the booth flyer's QR code; the second taps the expo section's call to action.
  await visit(page, "/?src=flyer");
  await visit(page, "/?src=flyer");
  await eventSettled(page, "cta", () => ctaLink(page, content.expo.ctaLabel).click());

  // A direct visit that starts the form (two fields: one start).
  await visit(page, "/");
  await eventSettled(page, "form_start", () => meetingForm(page).email.focus());
  await meetingForm(page).organization.focus();

  const today = isoDate(new Date());
  await expect
    .poll(async () => (await readSiteReport(backend.db, today, today)).totals)
    .toEqual({ views: 4, ctaTaps: 2, formStarts: 2, requests: 1, failures: 0, meetings: 0 });
  const report = await readSiteReport(backend.db, today, today);
  expect(report.campaigns).toEqual([
    campaignRow("flyer", "qr", "", [2, 1, 0, 0]),
    campaignRow("linkedin", "social", "expo-2025", [1, 1, 1, 1]),
    campaignRow("", "", "", [1, 0, 1, 0]),
  ]);
  expect(report.referrers).toEqual([{ domain: "linkedin.com", views: 1 }]);
  expect(report.ctas).toEqual([
    { id: "expo", taps: 1 },
    { id: "hero", taps: 1 },
  ]);

  // One simple request per event (no preflight): a text/plain body and no header of its own.
  expect(events).toHaveLength(9);
  for (const request of events) {
    const headers = await request.allHeaders();
    expect(headers["content-type"]).toBe("text/plain");
    const own = Object.keys(headers).filter((name) => /^(apikey|authorization|x-)/.test(name));
    expect(own).toEqual([]);
  }
  // No cookie, no storage.
  expect(await context.cookies()).toEqual([]);
  expect(
    await page.evaluate(() => [localStorage.length, sessionStorage.length, document.cookie]),
  ).toEqual([0, 0, ""]);
});

// Global Privacy Control, Do Not Track, bots and Lighthouse: the table of mayCount in
// src/lib/site-analytics.test.ts, which reads the browser's navigator as it is.
test.describe(() => {
  test.use({ userAgent: undefined });
  test("not sent, not counted: Playwright's own headless Chromium (navigator.webdriver, HeadlessChrome)", async ({
    page,
    context,
    backend,
  }) => {
    const events = recordEvents(context);
    await visit(page, "/?src=flyer", { counted: false });
    await ctaLink(page, content.hero.ctaLabel).click();
    await meetingForm(page).fullName.focus();
    await page.waitForTimeout(300);
    expect(events).toEqual([]);
    const counts = await backend.db.query("select * from private.site_event_counts");
    expect(counts.rows).toEqual([]);
  });
});
