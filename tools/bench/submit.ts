/**
 * `npm run bench:submit`: how long a visitor on a slow phone and a congested network waits between
 * tapping "Schedule My CTAA Meeting" and the success toast, and where that time goes.
 *
 * The built site and a Supabase-like API run on loopback behind a throttled link
 * (submit/throttled-link.ts: every chunk delayed by half a round trip each way and paced to the
 * bandwidth, so TCP and TLS handshakes and the CORS preflight pay their round trips), each as an
 * HTTPS origin with a throw-away certificate (submit/https-origin.ts; HTTP/2, TLS 1.3). The
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
 *   it, and they tap submit as soon as it is enabled (a click() in the page at that moment).
 *   Goal: navigation → toast ≤ 1.5 × (first paint + two round trips).
 * Phases come from the page (Paint Timing, Resource Timing of the insert, the tap's click event,
 * the toast's arrival in the DOM and the frame after it) and from Chromium's network events
 * (the preflight and the POST, with connection set-up), on one clock. Medians over the runs.
 * Exit 1 when a run did not end with exactly one stored request and the success toast.
 */
import path from "node:path";
import { parseArgs } from "node:util";

import { startLocalBackend } from "../../local-backend";
import { launchChromium, requireChromium } from "../lib/chromium";
import { runCli, wholeNumberOption } from "../lib/cli";
import { PROJECT_ROOT, PUBLIC_DIR } from "../lib/test-build";
import { startStaticServer } from "../lib/static-server";
import { startHttpsFront, throwawayCertificate } from "./submit/https-origin";
import { describeRun, SCENARIOS, summarise, type RunPhases, type Scenario } from "./submit/phases";
import { copyForOrigin } from "./submit/site-copy";
import { throttledLink, type LinkProfile } from "./submit/throttled-link";
import { ON_FORM_MS, runOnce, SITE_HOST, SUPABASE_HOST } from "./submit/visitor";

const PROFILES: Record<string, LinkProfile> = {
  /** The issue's booth: a congested venue network and a slow phone. */
  "venue-wifi": { name: "venue Wi-Fi", rttMs: 400, downKbps: 1000, upKbps: 500, cpuSlowdown: 4 },
  /**
   * Lighthouse's mobile slow 4G as it models the real network (150 ms, 1.6 Mbit/s / 750 kbit/s):
   * its DevTools preset (562.5 ms) is that round trip × 3.75 because request-level emulation
   * charges no handshakes, which this link does.
   */
  "slow-4g": { name: "slow 4G", rttMs: 150, downKbps: 1600, upKbps: 750, cpuSlowdown: 4 },
};

const USAGE =
  "Usage: npm run bench:submit [-- --runs N (default 3)] [--profile venue-wifi|slow-4g] [--scenario on-form|autofill] [<built site folder>]";

function parseOptions() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      runs: { type: "string" },
      profile: { type: "string" },
      scenario: { type: "string" },
    },
  });
  const profiles = values.profile ? [values.profile] : Object.keys(PROFILES);
  const scenarios = (values.scenario ? [values.scenario] : SCENARIOS) as Scenario[];
  if (
    positionals.length > 1 ||
    profiles.some((name) => !PROFILES[name]) ||
    scenarios.some((name) => !SCENARIOS.includes(name))
  )
    throw new Error(USAGE);
  return {
    runs: wholeNumberOption(values.runs, "runs", 3),
    profiles: profiles.map((name) => PROFILES[name]!),
    scenarios,
    publicDir: positionals[0] ? path.resolve(positionals[0]) : PUBLIC_DIR,
  };
}

/** `runs` visitors of one scenario, a line each, then the medians; the number of failed runs. */
async function runScenario(
  runs: number,
  profile: LinkProfile,
  scenario: Scenario,
  visit: (run: number) => Promise<RunPhases>,
): Promise<number> {
  console.log(
    ` ${scenario === "on-form" ? `on the form ${ON_FORM_MS / 1000} s, then tap` : "autofill and tap at once"}:`,
  );
  const results: RunPhases[] = [];
  for (let run = 1; run <= runs; run++) {
    try {
      results.push(await visit(run));
      console.log(`  run ${run}: ${describeRun(results.at(-1)!)}`);
    } catch (error) {
      console.log(
        `  run ${run}: FAILED: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  if (results.length > 0) console.log(summarise(profile, scenario, results).join("\n"));
  return runs - results.length;
}

async function main(): Promise<number> {
  const { runs, profiles, scenarios, publicDir } = parseOptions();
  requireChromium();
  const site = await copyForOrigin(publicDir, `https://${SUPABASE_HOST}`);
  const certificate = throwawayCertificate([SITE_HOST, SUPABASE_HOST]);
  const backend = await startLocalBackend({ port: 0, host: "127.0.0.1", log: () => undefined });
  const staticServer = await startStaticServer({ root: site.dir });
  const siteFront = await startHttpsFront(certificate, staticServer.port);
  const supabaseFront = await startHttpsFront(certificate, backend.port, "kong");
  let failed = 0;
  try {
    console.log(
      `Tap to toast on / (${path.relative(PROJECT_ROOT, publicDir) || "."}/), HTTPS through a throttled loopback link, ${runs} runs per scenario.`,
    );
    for (const profile of profiles) {
      const link = throttledLink(profile);
      const siteLink = await link.forward(siteFront.port);
      const supabaseLink = await link.forward(supabaseFront.port);
      const browser = await launchChromium([
        `--host-resolver-rules=MAP ${SITE_HOST} 127.0.0.1:${siteLink.port},MAP ${SUPABASE_HOST} 127.0.0.1:${supabaseLink.port}`,
        `--ignore-certificate-errors-spki-list=${certificate.spkiHash}`,
      ]);
      try {
        console.log(
          `\n${profile.name}: round trip ${profile.rttMs} ms, ${profile.downKbps} kbit/s down, ${profile.upKbps} kbit/s up, CPU ×${profile.cpuSlowdown}`,
        );
        for (const scenario of scenarios)
          failed += await runScenario(runs, profile, scenario, (run) =>
            runOnce(browser, `https://${SITE_HOST}/`, profile, scenario, backend, run),
          );
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

runCli(main);
