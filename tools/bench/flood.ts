/**
 * `npm run bench:flood [-- --mode direct|solving|venue] [--reuse-build] …` (options: flood/options.ts):
 * what a script holding the public anon key, or a busy booth, turns into staff e-mails and rows
 * while real visitors use the page. The built site and the local backend run with the hosted
 * screening settings and a digest job every 60 s, as pg_cron runs it; then it waits until every
 * stored request reached staff. Prints figures and each goal "met"/"NOT met"; exits 1 only if it
 * could not run.
 */
import type { Browser } from "playwright-core";

import { startLocalBackend, type LocalBackend } from "../../local-backend/server";
import { launchChromium } from "../lib/chromium";
import { runCli } from "../lib/cli";
import { startStaticServer } from "../lib/static-server";
import { buildOrReuse, PUBLIC_DIR } from "../lib/test-build";
import { attackerAddresses, DIRECT_FROM, directFlood, solvingAttack } from "./flood/attack";
import { caseName, parseFloodOptions, type FloodOptions } from "./flood/options";
import { printLoad, type Run } from "./flood/report";
import { clientKey, lastRequestId, waitForStaff, watchStaffMail } from "./flood/staff";
import { venueAnswers, visitorAnswers } from "./flood/texts";
import { printVisitors } from "./flood/visitor-goals";
import { submitThroughPage, visitors } from "./flood/visitors";

const log = (text: string): void => console.log(`bench:flood: ${text}`);

/** The run's visitors through the page in Chromium. */
function realVisitors(options: FloodOptions, browser: Browser, siteUrl: string, run: string) {
  const shared = new Set(
    Array.from({ length: options.sameQuestion }, (_, k) =>
      Math.floor(((k + 0.5) * options.real) / options.sameQuestion),
    ),
  );
  const answers = (index: number) =>
    options.mode === "venue"
      ? venueAnswers(index, run, shared.has(index))
      : visitorAnswers(index, run);
  const every = options.every === undefined ? undefined : options.every * 1000;
  return visitors(options.real, every, (index) =>
    submitThroughPage(browser, siteUrl, index, answers(index)),
  );
}

function attackFor(options: FloodOptions, backend: LocalBackend, addresses: string[]) {
  const { url, anonKey } = backend;
  if (options.mode === "direct") return directFlood(url, anonKey, options.flood);
  if (options.mode === "venue") return undefined;
  return solvingAttack({ url, anonKey, addresses, seconds: options.seconds });
}

async function main(): Promise<number> {
  const options = parseFloodOptions(process.argv.slice(2));
  const addresses = {
    direct: [DIRECT_FROM],
    solving: attackerAddresses(options.addresses),
    venue: [],
  }[options.mode];
  const info = await buildOrReuse(options.reuseBuild, log);
  const backend = await startLocalBackend({
    port: info.backendPort,
    notifications: { catcher: { port: 0 }, digestIntervalMs: 60_000 },
  });
  const site = await startStaticServer({ root: PUBLIC_DIR });
  const browser = await launchChromium();
  try {
    const firstId = await lastRequestId(backend.db);
    const mail = watchStaffMail(backend.notifier!.catcher!);
    const startedAt = Date.now();
    log(`${caseName(options)}, ${options.real} visitors through the page in Chromium…`);
    const [attack, real] = await Promise.all([
      attackFor(options, backend, addresses),
      realVisitors(options, browser, site.url, startedAt.toString(36)),
    ]);
    const lastSent = Math.max(...real.map((v) => v.tappedAt), attack?.tally["max sent at"] ?? 0);
    log(
      `load over at +${Math.round((Date.now() - startedAt) / 1000)} s; waiting for every stored request to reach staff (at most ${options.waitMinutes} min after the last submission)…`,
    );
    const deadline = lastSent + options.waitMinutes * 60_000;
    const outcome = await waitForStaff(backend.db, mail, firstId, deadline);
    await backend.notifier!.idle();
    mail.stop();
    const keys = addresses.map((address) => clientKey(backend.db, address));
    const run: Run = {
      options,
      startedAt,
      mail,
      outcome,
      attackerKeys: new Set(await Promise.all(keys)),
      attack,
      real,
    };
    printLoad(run);
    printVisitors(run);
    return 0;
  } finally {
    await browser.close();
    await site.close();
    await backend.close();
  }
}

runCli(main);
