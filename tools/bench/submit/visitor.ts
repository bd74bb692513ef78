/** One visitor of bench:submit: a fresh browser context that loads the page, fills in the form and taps submit as the scenario says. */
import fs from "node:fs";
import path from "node:path";
import { load } from "js-yaml";
import type { Browser } from "playwright-core";
import type { LocalBackend } from "../../../local-backend";
import { PROJECT_ROOT } from "../../lib/test-build";
import type { LinkProfile } from "../../lib/throttled-link";
import { OBSERVE_SUBMIT_SCRIPT, type SubmitObservations } from "../submit-observer";
import { phasesOf, type RunPhases } from "./phases";
import { ON_FORM_MS, type Scenario } from "./profiles";
import { recordSupabaseRequests } from "./supabase-requests";

const MOBILE = {
  viewport: { width: 412, height: 823 },
  deviceScaleFactor: 1.75,
  isMobile: true,
  hasTouch: true,
};
const SUCCESS_TITLE = (
  load(fs.readFileSync(path.join(PROJECT_ROOT, "content", "meeting.yaml"), "utf8")) as {
    successToast: { title: string };
  }
).successToast.title;

/** Clicks the form's submit button as soon as it is enabled (a string: tsx's helpers do not exist in the page). */
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

/** Every resource the page loaded, when it was asked for, sent, began to arrive and ended (verbose output: what shares the link with the submit). */
const LIST_RESOURCES_SCRIPT = `performance.getEntriesByType("resource").map((entry) =>
  entry.name.split("/").pop().slice(0, 14) + "@" + [entry.startTime, entry.requestStart, entry.responseStart, entry.responseEnd].map(Math.round).join("–")).join(" ")`;

export async function runOnce(
  browser: Browser,
  siteUrl: string,
  profile: LinkProfile,
  scenario: Scenario,
  backend: LocalBackend,
  run: number,
): Promise<RunPhases> {
  const context = await browser.newContext({ ...MOBILE });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: profile.cpuSlowdown });
    const network = recordSupabaseRequests(cdp);
    await page.addInitScript(OBSERVE_SUBMIT_SCRIPT);
    if (process.env.BENCH_SUBMIT_VERBOSE) {
      await page.addInitScript(
        `window.__loaf=[];new PerformanceObserver((l)=>{for(const e of l.getEntries())window.__loaf.push([Math.round(e.startTime),Math.round(e.duration),Math.round(e.renderStart?e.renderStart-e.startTime:0),(e.scripts||[]).map(s=>(s.sourceURL||'').split('/').pop()+':'+s.invokerType+':'+Math.round(s.duration)).join(',')])}).observe({type:'long-animation-frame',buffered:true})`,
      );
    }
    const rowsBefore = await storedRows(backend);
    const answers = {
      fullName: "Jordan Rivera",
      organization: "Valley Metro Transit",
      email: `bench.${Date.now()}.${run}@example.org`,
      challenges: "We run 30 vans.",
    };
    const form = page.locator("#meeting-form form");
    const submit = form.locator("button[type=submit]");

    if (scenario === "on-form") {
      await page.goto(siteUrl, { waitUntil: "load", timeout: 120_000 });
      await page.waitForLoadState("networkidle");
      await page.locator("#contact-form").scrollIntoViewIfNeeded();
      const reached = Date.now();
      for (const [name, value] of Object.entries(answers))
        await form.locator(`[name="${name}"]`).fill(value);
      await page.waitForTimeout(Math.max(0, reached + ON_FORM_MS - Date.now()));
      await submit.tap();
    } else {
      await page.goto(siteUrl, { waitUntil: "commit", timeout: 120_000 });
      await page.waitForFunction(
        () => performance.getEntriesByName("first-contentful-paint").length > 0,
        null,
        { polling: 10, timeout: 60_000 },
      );
      await page.evaluate((values) => {
        document
          .querySelector("#meeting-form button[type=submit]")
          ?.scrollIntoView({ block: "center", behavior: "instant" }); // at once: the page scrolls smoothly (CSS), which would move the reaching later
        (window as unknown as { __reachedFormMs: number }).__reachedFormMs = performance.now();
        for (const [name, value] of Object.entries(values)) {
          const input = document.querySelector<HTMLInputElement | HTMLTextAreaElement>(
            `#meeting-form [name="${name}"]`,
          )!;
          input.value = value; // as autofill does: no focus, an input and a change event
          input.dispatchEvent(new Event("input", { bubbles: true }));
          input.dispatchEvent(new Event("change", { bubbles: true }));
        }
      }, answers);
      // The visitor taps the moment the button works: clicked from inside the page when it is
      // enabled, so the harness adds no delay (a touch sent from here came 0.7–1.7 s late at 4× CPU).
      await page.evaluate(TAP_WHEN_ENABLED_SCRIPT);
    }
    await page
      .waitForFunction(
        () =>
          (window as unknown as { __submitBench: () => SubmitObservations }).__submitBench()
            .toastFrameMs !== null,
        null,
        {
          polling: 50,
          timeout: 60_000,
        },
      )
      .catch(async (error: unknown) => {
        throw new Error(
          `no toast after the tap (${String(error)}); the page saw ${JSON.stringify(await page.evaluate("window.__submitBench()"))}`,
        );
      });
    const seen = (await page.evaluate("window.__submitBench()")) as SubmitObservations;
    if (process.env.BENCH_SUBMIT_VERBOSE)
      console.log(
        `    reached the form at ${Math.round(Number(await page.evaluate("window.__reachedFormMs ?? NaN")))} ms, warmed up by the loader at ${await page.evaluate("document.getElementById('contact-form').getAttribute('data-warmed-up')")}\n    long frames: ${JSON.stringify(await page.evaluate("window.__loaf"))}\n    resources (start–sent–first byte–end): ${String(await page.evaluate(LIST_RESOURCES_SCRIPT))}`,
      );
    const stored = (await storedRows(backend)) - rowsBefore;
    if (!seen.toastText?.includes(SUCCESS_TITLE) || stored !== 1) {
      throw new Error(
        `run ${run}: toast "${seen.toastText}", ${stored} request(s) stored (expected the success toast and 1)`,
      );
    }

    return phasesOf(seen, network);
  } finally {
    await context.close();
  }
}

async function storedRows(backend: LocalBackend): Promise<number> {
  const result = await backend.db.query<{ count: number }>(
    "select count(*)::int as count from public.contacts",
  );
  return result.rows[0]!.count;
}
