/**
 * One visitor of bench:submit: a fresh browser context (empty cache) that loads the page, fills
 * in the form and taps submit as the scenario says, while the page's own clocks (Paint Timing, the
 * tap's click event, the toast's arrival and the frame after it, Resource Timing of the insert)
 * and Chromium's network events for the Supabase origin are recorded.
 */
import type { Browser, CDPSession } from "playwright-core";

import { readRequests, type LocalBackend } from "../../../local-backend";
import { firstPaint, phonePage } from "../../lib/chromium";
import { meeting } from "../flood/texts";
import {
  phasesOf,
  type NetworkRequest,
  type PageObservations,
  type RunPhases,
  type Scenario,
} from "./phases";
import type { LinkProfile } from "./throttled-link";

export const SITE_HOST = "www.transit-expo.test";
export const SUPABASE_HOST = "benchproject.supabase.test";
export const ON_FORM_MS = 8000;

/**
 * Installed before the page's own scripts; `window.__submitBench()` returns PageObservations.
 * Plain JavaScript in a string, as the page runs it (tsx's helpers do not exist there).
 */
const OBSERVE_SUBMIT_SCRIPT = `(() => {
  const seen = { usableMs: null, tapMs: null, toastMs: null, toastFrameMs: null, toastText: null };
  addEventListener("click", (event) => {
    const target = event.target;
    if (seen.tapMs === null && target instanceof Element && target.closest("button[type=submit]")) seen.tapMs = event.timeStamp;
  }, true);
  const check = () => {
    const button = document.querySelector("#meeting-form button[type=submit]");
    if (seen.usableMs === null && button && !button.disabled) seen.usableMs = performance.now();
    if (seen.toastMs === null) {
      const toast = document.querySelector(".Toastify__toast");
      if (toast && toast.textContent) {
        seen.toastMs = performance.now();
        seen.toastText = toast.textContent;
        requestAnimationFrame(() => { seen.toastFrameMs = performance.now(); });
      }
    }
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["disabled", "class"] });
  window.__submitBench = () => {
    const paint = performance.getEntriesByName("first-contentful-paint")[0];
    const inserts = performance.getEntriesByType("resource")
      .filter((entry) => /\\/rest\\/v1\\/contacts(\\?|$)/.test(entry.name))
      .map((entry) => ({ startMs: entry.startTime, endMs: entry.responseEnd }));
    return { ...seen, firstPaintMs: paint ? paint.startTime : null, inserts };
  };
})();`;

/** Clicks the form's submit button from inside the page the moment it is enabled. */
const TAP_WHEN_ENABLED_SCRIPT = `(() => {
  const tap = () => {
    const button = document.querySelector("#meeting-form button[type=submit]");
    if (!button || button.disabled) return false;
    button.click();
    return true;
  };
  if (tap()) return;
  const observer = new MutationObserver(() => { if (tap()) observer.disconnect(); });
  observer.observe(document, { subtree: true, attributes: true, attributeFilter: ["disabled"] });
})()`;

/** Chromium's network events for the Supabase origin, in CDP's clock (ms). */
function recordSupabaseRequests(cdp: CDPSession): NetworkRequest[] {
  const all: NetworkRequest[] = [];
  const byId = (id: string) => all.find((request) => request.id === id);
  cdp.on("Network.requestWillBeSent", ({ requestId, request, initiator, timestamp }) => {
    if (!request.url.startsWith(`https://${SUPABASE_HOST}/`)) return;
    all.push({
      id: requestId,
      method: request.method,
      url: request.url,
      initiatorRequestId: initiator.requestId,
      sentMs: timestamp * 1000,
      connectMs: 0,
    });
  });
  cdp.on("Network.responseReceived", ({ requestId, response: { timing } }) => {
    const request = byId(requestId);
    if (!request || !timing || timing.connectStart < 0) return;
    request.connectMs =
      timing.connectEnd - (timing.dnsStart >= 0 ? timing.dnsStart : timing.connectStart);
  });
  cdp.on("Network.loadingFinished", ({ requestId, timestamp }) => {
    const request = byId(requestId);
    if (request) request.finishedMs = timestamp * 1000;
  });
  return all;
}

/** How many requests the database holds. */
const storedRows = async (backend: LocalBackend) => (await readRequests(backend.db)).length;

export async function runOnce(
  browser: Browser,
  siteUrl: string,
  profile: LinkProfile,
  scenario: Scenario,
  backend: LocalBackend,
  run: number,
): Promise<RunPhases> {
  const { context, page, cdp } = await phonePage(browser, profile.cpuSlowdown);
  try {
    const network = recordSupabaseRequests(cdp);
    await page.addInitScript(OBSERVE_SUBMIT_SCRIPT);
    const rowsBefore = await storedRows(backend);
    const answers = {
      fullName: "Jordan Rivera",
      organization: "Valley Metro Transit",
      email: `bench.${Date.now()}.${run}@example.org`,
      challenges: "We run 30 vans.",
    };
    const form = page.locator("#meeting-form form");

    if (scenario === "on-form") {
      await page.goto(siteUrl, { waitUntil: "load", timeout: 120_000 });
      await page.waitForLoadState("networkidle");
      await page.locator("#contact-form").scrollIntoViewIfNeeded();
      const reached = Date.now();
      for (const [name, value] of Object.entries(answers))
        await form.locator(`[name="${name}"]`).fill(value);
      await page.waitForTimeout(Math.max(0, reached + ON_FORM_MS - Date.now()));
      await form.locator("button[type=submit]").tap();
    } else {
      await page.goto(siteUrl, { waitUntil: "commit", timeout: 120_000 });
      await firstPaint(page);
      await page.evaluate((values) => {
        // At once: the page scrolls smoothly (CSS), which would make the reaching later.
        document
          .querySelector("#meeting-form button[type=submit]")
          ?.scrollIntoView({ block: "center", behavior: "instant" });
        for (const [name, value] of Object.entries(values)) {
          const input = document.querySelector<HTMLInputElement | HTMLTextAreaElement>(
            `#meeting-form [name="${name}"]`,
          )!;
          input.value = value; // as autofill does: no focus, an input and a change event
          input.dispatchEvent(new Event("input", { bubbles: true }));
          input.dispatchEvent(new Event("change", { bubbles: true }));
        }
      }, answers);
      // Tapped from inside the page when the button works, so the harness adds no delay (a touch
      // sent from here came 0.7–1.7 s late at 4× CPU).
      await page.evaluate(TAP_WHEN_ENABLED_SCRIPT);
    }
    const observations = () => page.evaluate("window.__submitBench()") as Promise<PageObservations>;
    await page
      .waitForFunction(
        // A function, not a string: the page's CSP forbids eval.
        () =>
          (window as unknown as { __submitBench: () => PageObservations }).__submitBench()
            .toastFrameMs !== null,
        null,
        { polling: 50, timeout: 60_000 },
      )
      .catch(async (error: unknown) => {
        throw new Error(
          `no toast after the tap (${String(error)}); the page saw ${JSON.stringify(await observations())}`,
        );
      });
    const seen = await observations();
    const stored = (await storedRows(backend)) - rowsBefore;
    if (!seen.toastText?.includes(meeting.successToast.title) || stored !== 1)
      throw new Error(
        `run ${run}: toast "${seen.toastText}", ${stored} request(s) stored (expected the success toast and 1)`,
      );
    return phasesOf(seen, network);
  } finally {
    await context.close();
  }
}
