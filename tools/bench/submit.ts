/**
 * `npm run bench:submit`: how long a visitor on a slow phone and a congested network waits between
 * tapping "Schedule My CTAA Meeting" and the success toast, and where that time goes.
 *
 * The built site and a Supabase-like API run on loopback behind a throttled link
 * (tools/lib/throttled-link.ts: every chunk delayed by half a round trip each way and paced to the
 * bandwidth, so TCP and TLS handshakes and the CORS preflight pay their round trips), each as an
 * HTTPS origin with a throw-away certificate (tools/lib/https-origin.ts; HTTP/2, TLS 1.3). The
 * Supabase one answers preflights as hosted Supabase's gateway does (Kong's cors plugin: no
 * Access-Control-Max-Age) and forwards the rest to the local backend. Chromium resolves both host
 * names to the link (--host-resolver-rules, so DNS costs nothing here) and trusts the certificate
 * by its key (--ignore-certificate-errors-spki-list, so its cache works as on a valid one); its
 * CPU is slowed as the profile says. The site is a copy of the build with the Supabase URL it was
 * built for replaced by the benchmark's origin (in its scripts, HTML and _headers).
 *
 * Two scenarios, each in a fresh browser context (empty cache):
 * - "on the form 8 s": the page loads, the visitor scrolls to the form once everything has loaded,
 *   fills it in, and taps submit 8 s after reaching it. Goal: tap → toast ≤ 1.3 × two round trips.
 * - "autofill and tap": the visitor scrolls to the form at the first paint, the browser autofills
 *   it, and they tap submit as soon as it is enabled (a click() in the page at that moment). Goal: navigation → toast ≤ 1.5 × (first
 *   paint + two round trips).
 * Phases come from the page (Paint Timing, Resource Timing of the insert, the tap's click event,
 * the toast's arrival in the DOM and the frame after it) and from Chromium's network events
 * (the preflight and the POST, with connection set-up), on one clock. Medians over the runs.
 * Exit 1 when a run did not end with exactly one stored request and the success toast.
 *
 * Usage: npm run bench:submit [-- --runs N (default 3)] [--profile venue-wifi|slow-4g] [--scenario on-form|autofill] [<built site folder>]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { load } from "js-yaml";
import { chromium as playwrightChromium, type Browser, type CDPSession } from "playwright-core";
import { writeSecurityHeaders } from "../../build-time/security-headers";
import { startLocalBackend, type LocalBackend } from "../../local-backend";
import { median } from "../lib/audit-summary";
import { CHROMIUM_FLAGS, requireChromium } from "../lib/chromium";
import { runCli, wholeNumberOption } from "../lib/cli";
import { startHttpsFront, throwawayCertificate } from "../lib/https-origin";
import { startStaticServer } from "../lib/static-server";
import { PROJECT_ROOT, PUBLIC_DIR } from "../lib/test-build";
import { throttledLink, type LinkProfile } from "../lib/throttled-link";
import { OBSERVE_SUBMIT_SCRIPT, type SubmitObservations } from "./submit-observer";

export const PROFILES: Record<string, LinkProfile> = {
  /** The issue's booth: a congested venue network and a slow phone. */
  "venue-wifi": { name: "venue Wi-Fi", rttMs: 400, downKbps: 1000, upKbps: 500, cpuSlowdown: 4 },
  /**
   * Lighthouse's mobile slow 4G as it models the real network (150 ms, 1.6 Mbit/s / 750 kbit/s):
   * its DevTools preset (562.5 ms) is that round trip × 3.75 because request-level emulation
   * charges no handshakes, which this link does.
   */
  "slow-4g": { name: "slow 4G", rttMs: 150, downKbps: 1600, upKbps: 750, cpuSlowdown: 4 },
};
const SCENARIOS = ["on-form", "autofill"] as const;
type Scenario = (typeof SCENARIOS)[number];

const SITE_HOST = "www.transit-expo.test";
const SUPABASE_HOST = "benchproject.supabase.test";
const ON_FORM_MS = 8000;
const MOBILE = { viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true };
const SUCCESS_TITLE = (load(fs.readFileSync(path.join(PROJECT_ROOT, "content", "meeting.yaml"), "utf8")) as { successToast: { title: string } }).successToast.title;

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

/** The Supabase origin a built site talks to: the origin besides 'self' in its connect-src. */
export function bakedSupabaseOrigin(headersFile: string): string {
  const connect = /connect-src ([^;\n]+)/.exec(headersFile)?.[1]?.split(/\s+/).filter((source) => source && source !== "'self'") ?? [];
  if (connect.length !== 1) throw new Error(`Cannot tell the Supabase origin from the site's _headers (connect-src: ${connect.join(" ") || "none"}).`);
  return connect[0]!;
}

/**
 * A copy of the built site that talks to `origin` instead of the Supabase origin it was built for.
 * Its _headers are written again as the build writes them: the page's inline loader names the
 * Supabase origin (its warm-up), so the CSP's hash of it changes with the origin.
 */
async function copyForOrigin(publicDir: string, origin: string): Promise<{ dir: string; remove: () => void }> {
  const baked = bakedSupabaseOrigin(fs.readFileSync(path.join(publicDir, "_headers"), "utf8"));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-submit-site-"));
  fs.cpSync(publicDir, dir, { recursive: true });
  let replaced = 0;
  for (const entry of fs.readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    const file = path.join(dir, entry);
    if (!/(\.js|\.html|_headers)$/.test(entry) || !fs.statSync(file).isFile()) continue;
    const text = fs.readFileSync(file, "utf8");
    if (!text.includes(baked)) continue;
    fs.writeFileSync(file, text.split(baked).join(origin));
    replaced += 1;
  }
  if (replaced < 2) throw new Error(`${baked} was found in ${replaced} file(s) of ${publicDir}; expected the scripts and _headers.`);
  await writeSecurityHeaders({ publicDir: dir, supabaseUrl: origin, templatePath: path.join(PROJECT_ROOT, "static", "_headers") });
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

type NetworkRequest = {
  id: string;
  method: string;
  url: string;
  initiatorRequestId?: string;
  sentMs: number;
  finishedMs?: number;
  /** Connection set-up inside this request (DNS, TCP, TLS), ms; 0 when it used an open connection. */
  connectMs: number;
};

/** Chromium's network events for the Supabase origin, in CDP's clock (ms). */
function recordSupabaseRequests(cdp: CDPSession): NetworkRequest[] {
  const requests = new Map<string, NetworkRequest>();
  const all: NetworkRequest[] = [];
  cdp.on("Network.requestWillBeSent", (event) => {
    if (!event.request.url.startsWith(`https://${SUPABASE_HOST}/`)) return;
    const request: NetworkRequest = {
      id: event.requestId,
      method: event.request.method,
      url: event.request.url,
      initiatorRequestId: event.initiator.requestId,
      sentMs: event.timestamp * 1000,
      connectMs: 0,
    };
    requests.set(event.requestId, request);
    all.push(request);
  });
  cdp.on("Network.responseReceived", (event) => {
    const request = requests.get(event.requestId);
    const timing = event.response.timing;
    if (!request || !timing || timing.connectStart < 0) return;
    request.connectMs = timing.connectEnd - (timing.dnsStart >= 0 ? timing.dnsStart : timing.connectStart);
  });
  cdp.on("Network.loadingFinished", (event) => {
    const request = requests.get(event.requestId);
    if (request) request.finishedMs = event.timestamp * 1000;
  });
  return all;
}

export type RunPhases = {
  firstPaintMs: number;
  usableMs: number;
  tapMs: number;
  toastMs: number;
  /** tap → fetch() called for the insert. */
  tapToFetch: number;
  /** fetch() → the first request on the wire (queueing, waiting for a connection being opened). */
  fetchToWire: number;
  connection: number;
  preflight: number;
  post: number;
  responseToToast: number;
  tapToToast: number;
  preflights: number;
  /** Requests the page sent to Supabase before the tap (warm-ups, their preflights). */
  beforeTap: string[];
};

async function runOnce(browser: Browser, siteUrl: string, profile: LinkProfile, scenario: Scenario, backend: LocalBackend, run: number): Promise<RunPhases> {
  const context = await browser.newContext({ ...MOBILE });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: profile.cpuSlowdown });
    const network = recordSupabaseRequests(cdp);
    await page.addInitScript(OBSERVE_SUBMIT_SCRIPT);
    if (process.env.BENCH_SUBMIT_VERBOSE) {
      await page.addInitScript(`window.__loaf=[];new PerformanceObserver((l)=>{for(const e of l.getEntries())window.__loaf.push([Math.round(e.startTime),Math.round(e.duration),Math.round(e.renderStart?e.renderStart-e.startTime:0),(e.scripts||[]).map(s=>(s.sourceURL||'').split('/').pop()+':'+s.invokerType+':'+Math.round(s.duration)).join(',')])}).observe({type:'long-animation-frame',buffered:true})`);
    }
    const rowsBefore = await storedRows(backend);
    const answers = { fullName: "Jordan Rivera", organization: "Valley Metro Transit", email: `bench.${Date.now()}.${run}@example.org`, challenges: "We run 30 vans." };
    const form = page.locator("#meeting-form form");
    const submit = form.locator("button[type=submit]");

    if (scenario === "on-form") {
      await page.goto(siteUrl, { waitUntil: "load", timeout: 120_000 });
      await page.waitForLoadState("networkidle");
      await page.locator("#contact-form").scrollIntoViewIfNeeded();
      const reached = Date.now();
      for (const [name, value] of Object.entries(answers)) await form.locator(`[name="${name}"]`).fill(value);
      await page.waitForTimeout(Math.max(0, reached + ON_FORM_MS - Date.now()));
      await submit.tap();
    } else {
      await page.goto(siteUrl, { waitUntil: "commit", timeout: 120_000 });
      await page.waitForFunction(() => performance.getEntriesByName("first-contentful-paint").length > 0, null, { polling: 10, timeout: 60_000 });
      await page.evaluate((values) => {
        document.querySelector("#meeting-form button[type=submit]")?.scrollIntoView({ block: "center", behavior: "instant" }); // at once: the page scrolls smoothly (CSS), which would move the reaching later
        (window as unknown as { __reachedFormMs: number }).__reachedFormMs = performance.now();
        for (const [name, value] of Object.entries(values)) {
          const input = document.querySelector<HTMLInputElement | HTMLTextAreaElement>(`#meeting-form [name="${name}"]`)!;
          input.value = value; // as autofill does: no focus, an input and a change event
          input.dispatchEvent(new Event("input", { bubbles: true }));
          input.dispatchEvent(new Event("change", { bubbles: true }));
        }
      }, answers);
      // The visitor taps the moment the button works: clicked from inside the page when it is
      // enabled, so the harness adds no delay (a touch sent from here came 0.7–1.7 s late at 4× CPU).
      await page.evaluate(TAP_WHEN_ENABLED_SCRIPT);
    }
    await page.waitForFunction(() => (window as unknown as { __submitBench: () => SubmitObservations }).__submitBench().toastFrameMs !== null, null, {
      polling: 50,
      timeout: 60_000,
    }).catch(async (error: unknown) => {
      throw new Error(`no toast after the tap (${String(error)}); the page saw ${JSON.stringify(await page.evaluate("window.__submitBench()"))}`);
    });
    const seen = (await page.evaluate("window.__submitBench()")) as SubmitObservations;
    if (process.env.BENCH_SUBMIT_VERBOSE) console.log(`    reached the form at ${Math.round(Number(await page.evaluate("window.__reachedFormMs ?? NaN")))} ms, warmed up by the loader at ${await page.evaluate("document.getElementById('contact-form').getAttribute('data-warmed-up')")}\n    long frames: ${JSON.stringify(await page.evaluate("window.__loaf"))}\n    resources (start–sent–first byte–end): ${String(await page.evaluate(LIST_RESOURCES_SCRIPT))}`);
    const stored = (await storedRows(backend)) - rowsBefore;
    if (!seen.toastText?.includes(SUCCESS_TITLE) || stored !== 1) {
      throw new Error(`run ${run}: toast "${seen.toastText}", ${stored} request(s) stored (expected the success toast and 1)`);
    }

    return phasesOf(seen, network);
  } finally {
    await context.close();
  }
}

async function storedRows(backend: LocalBackend): Promise<number> {
  const result = await backend.db.query<{ count: number }>("select count(*)::int as count from public.contacts");
  return result.rows[0]!.count;
}

/** Puts the page's and the network's figures on one clock and cuts the tap → toast time into phases. */
export function phasesOf(seen: SubmitObservations, network: NetworkRequest[]): RunPhases {
  const { tapMs, toastFrameMs, firstPaintMs, usableMs } = seen;
  if (tapMs === null || toastFrameMs === null) throw new Error("no tap or no toast recorded");
  const insert = seen.inserts.at(-1);
  const post = network.filter((request) => request.method === "POST" && request.finishedMs !== undefined).at(-1);
  if (!insert || !post?.finishedMs) throw new Error("the insert was not seen on the network");
  const toPage = insert.endMs - post.finishedMs; // the same moment on both clocks: the answer's last byte
  const preflights = network.filter((request) => request.method === "OPTIONS" && request.finishedMs !== undefined && request.sentMs + toPage >= tapMs);
  const preflight = preflights.find((request) => request.initiatorRequestId === post.id) ?? preflights.at(-1);
  const first = preflight ?? post;
  const wire = first.sentMs + toPage;
  const connection = first.connectMs;
  const preflightMs = preflight ? preflight.finishedMs! + toPage - wire - connection : 0;
  const postStart = preflight ? preflight.finishedMs! + toPage : wire + connection;
  return {
    firstPaintMs: firstPaintMs ?? NaN,
    usableMs: usableMs ?? NaN,
    tapMs,
    toastMs: toastFrameMs,
    tapToFetch: insert.startMs - tapMs,
    fetchToWire: Math.max(0, wire - insert.startMs),
    connection,
    preflight: preflightMs,
    post: insert.endMs - postStart,
    responseToToast: toastFrameMs - insert.endMs,
    tapToToast: toastFrameMs - tapMs,
    preflights: preflights.length,
    beforeTap: network.map((request) => `${request.method} ${new URL(request.url).pathname}@${Math.round(request.sentMs + toPage)}${request.finishedMs ? `–${Math.round(request.finishedMs + toPage)}` : ""}`),
  };
}

const ms = (value: number) => (Number.isFinite(value) ? `${Math.round(value)} ms`.padStart(8) : "       —");

function describeRun(run: RunPhases): string {
  return (
    `first paint ${ms(run.firstPaintMs)}, usable ${ms(run.usableMs)}, tap ${ms(run.tapMs)} | tap→fetch ${ms(run.tapToFetch)}, →wire ${ms(run.fetchToWire)}, ` +
    `connection ${ms(run.connection)}, preflight ${ms(run.preflight)}, POST ${ms(run.post)}, →toast ${ms(run.responseToToast)} | tap→toast ${ms(run.tapToToast)}, nav→toast ${ms(run.toastMs)}` +
    (process.env.BENCH_SUBMIT_VERBOSE ? `\n    before the tap: ${run.beforeTap.join(" ")}` : "")
  );
}

function summarise(profile: LinkProfile, scenario: Scenario, runs: RunPhases[]): string[] {
  const m = (pick: (run: RunPhases) => number) => median(runs.map(pick));
  const twoRoundTrips = 2 * profile.rttMs;
  const lines = [
    `  median of ${runs.length}: first paint ${ms(m((run) => run.firstPaintMs))}, button usable ${ms(m((run) => run.usableMs))}, tap ${ms(m((run) => run.tapMs))}`,
    `    tap → fetch() ${ms(m((run) => run.tapToFetch))}`,
    `    fetch() → on the wire ${ms(m((run) => run.fetchToWire))}`,
    `    connection set-up (TCP+TLS) ${ms(m((run) => run.connection))}`,
    `    preflight ${ms(m((run) => run.preflight))} (runs with a preflight: ${runs.filter((run) => run.preflights > 0).length}/${runs.length})`,
    `    POST ${ms(m((run) => run.post))}`,
    `    response → toast on screen ${ms(m((run) => run.responseToToast))}`,
    `    tap → toast ${ms(m((run) => run.tapToToast))}; navigation → toast ${ms(m((run) => run.toastMs))}`,
  ];
  if (scenario === "on-form") {
    const tapToToast = m((run) => run.tapToToast);
    lines.push(`    goal: tap → toast ≤ 1.3 × two round trips (${twoRoundTrips} ms): ${(tapToToast / twoRoundTrips).toFixed(2)}×`);
  } else {
    const floor = m((run) => run.firstPaintMs) + twoRoundTrips;
    lines.push(`    goal: navigation → toast ≤ 1.5 × (first paint + two round trips = ${Math.round(floor)} ms): ${(m((run) => run.toastMs) / floor).toFixed(2)}×`);
  }
  return lines;
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: { runs: { type: "string" }, profile: { type: "string" }, scenario: { type: "string" } },
  });
  if (positionals.length > 1) throw new Error("Usage: npm run bench:submit [-- --runs N] [--profile venue-wifi|slow-4g] [--scenario on-form|autofill] [<built site folder>]");
  const runs = wholeNumberOption(values.runs, "runs", 3);
  const profiles = values.profile ? [values.profile] : Object.keys(PROFILES);
  for (const name of profiles) if (!PROFILES[name]) throw new Error(`--profile must be one of ${Object.keys(PROFILES).join(", ")}`);
  const scenarios = values.scenario ? [values.scenario as Scenario] : [...SCENARIOS];
  for (const name of scenarios) if (!SCENARIOS.includes(name)) throw new Error(`--scenario must be one of ${SCENARIOS.join(", ")}`);
  const publicDir = positionals[0] ? path.resolve(positionals[0]) : PUBLIC_DIR;

  const chromium = requireChromium();
  const site = await copyForOrigin(publicDir, `https://${SUPABASE_HOST}`);
  const certificate = throwawayCertificate([SITE_HOST, SUPABASE_HOST]);
  const backend = await startLocalBackend({ port: 0, host: "127.0.0.1", log: () => undefined });
  const staticServer = await startStaticServer({ root: site.dir });
  const siteFront = await startHttpsFront(certificate, staticServer.port);
  const supabaseFront = await startHttpsFront(certificate, Number(new URL(backend.url).port), "kong");
  let failed = 0;
  try {
    console.log(`Tap to toast on / (${path.relative(PROJECT_ROOT, publicDir) || "."}/), HTTPS through a throttled loopback link, ${runs} runs per scenario.`);
    for (const name of profiles) {
      const profile = PROFILES[name]!;
      const link = throttledLink(profile);
      const siteLink = await link.forward(siteFront.port);
      const supabaseLink = await link.forward(supabaseFront.port);
      const browser = await playwrightChromium.launch({
        executablePath: chromium.executablePath,
        args: [
          ...CHROMIUM_FLAGS,
          `--host-resolver-rules=MAP ${SITE_HOST} 127.0.0.1:${siteLink.port},MAP ${SUPABASE_HOST} 127.0.0.1:${supabaseLink.port}`,
          `--ignore-certificate-errors-spki-list=${certificate.spkiHash}`,
        ],
      });
      try {
        console.log(`\n${profile.name}: round trip ${profile.rttMs} ms, ${profile.downKbps} kbit/s down, ${profile.upKbps} kbit/s up, CPU ×${profile.cpuSlowdown}`);
        for (const scenario of scenarios) {
          console.log(` ${scenario === "on-form" ? `on the form ${ON_FORM_MS / 1000} s, then tap` : "autofill and tap at once"}:`);
          const results: RunPhases[] = [];
          for (let run = 1; run <= runs; run++) {
            try {
              const result = await runOnce(browser, `https://${SITE_HOST}/`, profile, scenario, backend, run);
              console.log(`  run ${run}: ${describeRun(result)}`);
              results.push(result);
            } catch (error) {
              failed += 1;
              console.log(`  run ${run}: FAILED: ${error instanceof Error ? error.message : String(error)}`);
            }
          }
          if (results.length > 0) console.log(summarise(profile, scenario, results).join("\n"));
        }
      } finally {
        await browser.close();
        await link.close();
      }
    }
  } finally {
    await supabaseFront.close();
    await siteFront.close();
    await staticServer.close();
    await backend.close();
    site.remove();
  }
  return failed > 0 ? 1 : 0;
}

if (require.main === module) runCli(main);
