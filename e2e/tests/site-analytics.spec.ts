import type { BrowserContext, Page, Request } from "@playwright/test";
import { isoDate, readSiteReport } from "../../tools/site-analytics/report-data";
import { content } from "../support/content";
import { expect, test } from "../support/fixtures";
import { fillMeetingForm, meetingForm, toast, uniqueEmail } from "../support/form";
import { pageBootHasRun } from "../support/page-scripts";

/**
 * Site analytics in a real browser against the real local backend (docs/analytics.md): scripted
 * visits with different campaign tags give exact counts per campaign, Global Privacy Control and
 * Do Not Track are honoured, bots and audits are not counted, nothing is stored in the browser.
 *
 * Playwright's Chromium presents itself as automated (`navigator.webdriver`, "HeadlessChrome" in
 * its user agent), which the page does not count. The visits that must count present as a
 * person's browser: a desktop Chrome user agent and `navigator.webdriver` false (asPerson).
 */
const PERSON_UA =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const RPC = /\/rest\/v1\/rpc\/record_site_event\?apikey=/;
const ANALYTICS_CHUNK = /\/site-analytics-[0-9a-f]+\.js$/;

test.use({ userAgent: PERSON_UA });

async function asPerson(context: BrowserContext): Promise<void> {
  await context.addInitScript(() =>
    Object.defineProperty(Navigator.prototype, "webdriver", {
      configurable: true,
      get: () => false,
    }),
  );
}

/** Every event the pages of `context` send, as the database reads it, with the request. */
function recordEvents(
  context: BrowserContext,
): Array<{ event: Record<string, string>; request: Request }> {
  const events: Array<{ event: Record<string, string>; request: Request }> = [];
  context.on("request", (request) => {
    if (request.method() === "POST" && RPC.test(request.url()))
      events.push({
        event: JSON.parse(request.postData() ?? "{}") as Record<string, string>,
        request,
      });
  });
  return events;
}

/** Opens `path` and waits until the page view was sent (or, when none may be, until the counting code has loaded and had its chance). */
async function visit(
  page: Page,
  path: string,
  { referer, counted = true }: { referer?: string; counted?: boolean } = {},
): Promise<void> {
  const sent = counted
    ? page.waitForRequest(
        (request) => RPC.test(request.url()) && request.postData()?.includes('"view"') === true,
      )
    : undefined;
  const chunk = page.waitForResponse(ANALYTICS_CHUNK);
  await page.goto(path, referer ? { referer } : {});
  await pageBootHasRun(page);
  await chunk;
  await sent;
}

async function eventSettled(page: Page, kind: string, trigger: () => Promise<void>): Promise<void> {
  const sent = page.waitForRequest(
    (request) =>
      RPC.test(request.url()) && request.postData()?.includes(`"kind":"${kind}"`) === true,
  );
  await trigger();
  await sent;
}

test.describe("site analytics", () => {
  test.beforeEach(async ({ backendProcess }) => {
    await backendProcess
      .running()!
      .db.exec(
        "delete from private.site_event_counts; delete from private.site_event_clients; delete from private.site_event_salts",
      );
  });

  test("scripted visits with different campaign tags give exact counts per campaign, and nothing is kept in the browser", async ({
    page,
    context,
    backendProcess,
  }) => {
    await asPerson(context);
    const events = recordEvents(context);
    const cta = (name: string) => page.getByRole("link", { name, exact: true }).first();

    // A LinkedIn post: view, the hero's call to action, the form, a request.
    await visit(page, "/?utm_source=LinkedIn&utm_medium=social&utm_campaign=expo-2025", {
      referer: "https://www.linkedin.com/feed/update/1",
    });
    await eventSettled(page, "cta", () => cta(content.hero.ctaLabel).click());
    await eventSettled(page, "form_start", () => meetingForm(page).fullName.focus());
    await fillMeetingForm(page, {
      fullName: "Ada Analytics",
      organization: "Metro Transit",
      email: uniqueEmail("analytics"),
    });
    await eventSettled(page, "request_sent", () => meetingForm(page).submit.click());
    await expect(toast(page, content.meeting.successToast.title)).toBeVisible();

    // Two scans of the booth flyer's QR code; the second taps the expo section's call to action.
    await visit(page, "/?src=flyer");
    await visit(page, "/?src=flyer");
    await eventSettled(page, "cta", () => cta(content.expo.ctaLabel).click());

    // A direct visit that starts the form (two fields: one start).
    await visit(page, "/");
    await eventSettled(page, "form_start", () => meetingForm(page).email.focus());
    await meetingForm(page).organization.focus();

    const db = backendProcess.running()!.db;
    const today = isoDate(new Date());
    await expect
      .poll(async () => (await readSiteReport(db, today, today)).totals)
      .toEqual({ views: 4, ctaTaps: 2, formStarts: 2, requests: 1, failures: 0 });
    const report = await readSiteReport(db, today, today);
    expect(report.campaigns).toEqual([
      {
        source: "flyer",
        medium: "qr",
        campaign: "",
        views: 2,
        ctaTaps: 1,
        formStarts: 0,
        requests: 0,
        failures: 0,
      },
      {
        source: "linkedin",
        medium: "social",
        campaign: "expo-2025",
        views: 1,
        ctaTaps: 1,
        formStarts: 1,
        requests: 1,
        failures: 0,
      },
      {
        source: "",
        medium: "",
        campaign: "",
        views: 1,
        ctaTaps: 0,
        formStarts: 1,
        requests: 0,
        failures: 0,
      },
    ]);
    expect(report.referrers).toEqual([{ domain: "linkedin.com", views: 1 }]);
    expect(report.ctas).toEqual([
      { id: "expo", taps: 1 },
      { id: "hero", taps: 1 },
    ]);

    // One simple request per event (no preflight): a text/plain body and no header of its own.
    expect(events).toHaveLength(9);
    for (const { request } of events) {
      const headers = await request.allHeaders();
      expect(headers["content-type"]).toBe("text/plain");
      expect(
        Object.keys(headers).filter(
          (name) => name === "apikey" || name === "authorization" || name.startsWith("x-"),
        ),
      ).toEqual([]);
    }
    // No cookie, no storage.
    expect(await context.cookies()).toEqual([]);
    expect(
      await page.evaluate(() => [localStorage.length, sessionStorage.length, document.cookie]),
    ).toEqual([0, 0, ""]);
  });

  const PRIVACY_SIGNALS = [
    [
      "Global Privacy Control",
      () =>
        Object.defineProperty(Navigator.prototype, "globalPrivacyControl", {
          configurable: true,
          get: () => true,
        }),
    ],
    [
      "Do Not Track",
      () =>
        Object.defineProperty(Navigator.prototype, "doNotTrack", {
          configurable: true,
          get: () => "1",
        }),
    ],
  ] as const;
  for (const [signal, script] of PRIVACY_SIGNALS) {
    test(`with ${signal} set, nothing is sent or counted`, async ({
      page,
      context,
      backendProcess,
    }) => {
      await asPerson(context);
      await context.addInitScript(script);
      const events = recordEvents(context);
      await visit(page, "/?src=flyer", { counted: false });
      await page.getByRole("link", { name: content.hero.ctaLabel, exact: true }).first().click();
      await meetingForm(page).fullName.focus();
      await page.waitForTimeout(300);
      expect(events).toEqual([]);
      expect(
        (await backendProcess.running()!.db.query("select * from private.site_event_counts")).rows,
      ).toEqual([]);
    });
  }

  const AUTOMATED = [
    ["Playwright's own headless Chromium (navigator.webdriver, HeadlessChrome)", undefined, false],
    ["Lighthouse, even when it does not say it is driven", `${PERSON_UA} Chrome-Lighthouse`, true],
  ] as const;
  for (const [what, userAgent, hideWebdriver] of AUTOMATED) {
    test(`not counted: ${what}`, async ({ browser, baseURL, backendProcess }) => {
      const context = await browser.newContext({ baseURL, ...(userAgent ? { userAgent } : {}) });
      try {
        if (hideWebdriver) await asPerson(context);
        const events = recordEvents(context);
        const page = await context.newPage();
        await visit(page, "/?utm_source=audit", { counted: false });
        await page.getByRole("link", { name: content.hero.ctaLabel, exact: true }).first().click();
        await page.waitForTimeout(300);
        expect(events).toEqual([]);
        expect(
          (await backendProcess.running()!.db.query("select * from private.site_event_counts"))
            .rows,
        ).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }
});
