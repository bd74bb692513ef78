/**
 * `npm run bench:submit`: how long a visitor on a slow phone and a congested network waits between
 * tapping submit and the success toast, and where that time goes.
 *
 * The built site (a copy talking to the benchmark's origin) and the local backend are served as
 * HTTPS origins (submit/https-origin.ts; the API answers preflights as hosted Supabase's gateway)
 * behind a throttled link (submit/throttled-link.ts), so handshakes and the preflight pay their
 * round trips. Two scenarios, each in a fresh context, with their goals (submit/phases.ts):
 * "on-form" (tap 8 s after reaching the form) and "autofill" (tap as soon as the button is enabled).
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
import { copyForOrigin } from "../lib/site-copy";
import { throttledLink, type LinkProfile } from "./submit/throttled-link";
import { ON_FORM_MS, runOnce, SITE_HOST, SUPABASE_HOST } from "./submit/visitor";

const PROFILES: Record<string, LinkProfile> = {
  /** The issue's booth: a congested venue network and a slow phone. */
  "venue-wifi": { name: "venue Wi-Fi", rttMs: 400, downKbps: 1000, upKbps: 500, cpuSlowdown: 4 },
  /** Lighthouse's slow 4G as it models the network; its DevTools preset is ×3.75 for handshakes. */
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
  const backend = await startLocalBackend({ port: 0, log: () => undefined });
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
