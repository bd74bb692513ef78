/**
 * `npm run bench:flood [-- --mode direct|solving|venue] [--reuse-build] …`: what a script holding
 * the public anon key, or a busy booth, turns into staff e-mails and rows while real visitors use
 * the page (issues 19 and 27). A benchmark: it prints figures and "met"/"NOT met" per goal from
 * them, and exits 1 only if it could not run.
 *
 * - The built site (npm run build for a local backend, or the last test build with --reuse-build)
 *   is served from 127.0.0.1; the local backend runs as `npm run backend` does, with the hosted
 *   settings (private.screening_settings defaults) and the digest job looking every 60 s, as
 *   pg_cron does.
 * - `direct` (case 3, flood/direct.ts): 3,000 proofless POSTs from 127.0.0.2 (`--flood N`).
 * - `solving` (cases 1 and 2, flood/solving.ts): for `--seconds 180`, one thread per core asks for
 *   the page proof's challenge, solves it and inserts with the page's headers, from 127.0.0.2 or,
 *   with `--addresses 20`, from 127.0.0.10–29 in turn.
 * - Meanwhile `--real 10` visitors submit through the page in Chromium from 127.0.0.1, one after
 *   another (flood/visitor.ts), or one every `--every S` seconds. `venue` (case 5): no attacker;
 *   `--real 40` visitors from 127.0.0.1, one every `--every 15` s, `--same-question 8` of them
 *   asking the same question.
 * - Then it waits until every stored request has reached staff (one by one, or listed in a
 *   digest: at most one per 15 minutes) or `--wait-minutes 20` after the last submission.
 */
import type { PGlite } from "@electric-sql/pglite";
import { chromium, type Browser } from "playwright-core";

import { startLocalBackend } from "../../local-backend/server";
import { CHROMIUM_FLAGS, requireChromium } from "../lib/chromium";
import { runCli } from "../lib/cli";
import { startStaticServer } from "../lib/static-server";
import { buildOrReuse, PUBLIC_DIR } from "../lib/test-build";
import { DIRECT_CONCURRENCY, DIRECT_FROM, directFlood, type DirectResult } from "./flood/direct";
import { caseName, parseFloodOptions, type FloodOptions } from "./flood/options";
import { pageHeaderDifferences } from "./flood/page-headers";
import {
  attackMail,
  attackOutcome,
  digestLines,
  line,
  settingsAndWait,
  visitorBlock,
  visitorGoals,
  type RunRecord,
} from "./flood/report";
import { measureSolvers } from "./flood/solver";
import { attackerAddresses, solvingAttack, type SolvingResult } from "./flood/solving";
import { watchStaffMail } from "./flood/staff-mail";
import { clientKey, lastRequestId, screeningSettings, waitForStaff } from "./flood/stored";
import { venueAnswers, visitorAnswers } from "./flood/texts";
import {
  submitThroughPage,
  visitorsInTurn,
  visitorsOnSchedule,
  type RealSubmission,
} from "./flood/visitor";

const log = (text: string): void => console.log(`bench:flood: ${text}`);

type Attack =
  | { kind: "direct"; result: DirectResult }
  | { kind: "solving"; result: SolvingResult }
  | { kind: "none" };

const statusList = (byStatus: Iterable<[number, number]>): string =>
  [...byStatus]
    .sort(([a], [b]) => a - b)
    .map(([status, n]) => `${n} × ${status || "no answer"}`)
    .join(", ") || "none";

function directBlock(record: RunRecord, result: DirectResult): void {
  const accepted = result.byStatus.get(201) ?? 0;
  const sent = [...result.byStatus.values()].reduce((a, b) => a + b, 0);
  console.log(
    `Attacker (${caseName(record.options)}): ${sent} direct POSTs from ${DIRECT_FROM} in ${(result.ms / 1000).toFixed(1)} s (${DIRECT_CONCURRENCY} at a time, spoofed X-Forwarded-For/CF-Connecting-IP/X-Real-IP)`,
  );
  line("accepted (201)", `${accepted}`);
  line(
    "refused",
    `${sent - accepted}  (${statusList([...result.byStatus].filter(([status]) => status !== 201))})`,
  );
  attackOutcome(record, 10);
}

function solvingBlock(record: RunRecord, result: SolvingResult): void {
  const { tally } = result;
  const addresses = attackerAddresses(record.options.addresses);
  const where =
    addresses.length === 1
      ? addresses[0]!
      : `${addresses[0]}–${addresses[addresses.length - 1]!.split(".").pop()}`;
  console.log(
    `Attacker (${caseName(record.options)}): ${result.seconds.toFixed(1)} s from ${where}, ${result.threads} threads (one per core)`,
  );
  const rates = [...result.solverRates]
    .map(([name, rate]) => `${name} ${(rate / 1e6).toFixed(2)} M`)
    .join(", ");
  line("solver", `${result.solver} (hashes/s on one thread before the run: ${rates})`);
  const perThread = tally.solvingMs > 0 ? tally.hashes / (tally.solvingMs / 1000) : 0;
  line(
    "hashes/s during the attack",
    `${(tally.hashes / result.seconds / 1e6).toFixed(2)} M in all; ${(perThread / 1e6).toFixed(2)} M per thread while solving (${(tally.hashes / 1e6).toFixed(0)} M hashes)`,
  );
  line(
    "challenges",
    `got ${tally.challengesGot}, refused ${tally.challengesRefused} (429), failed ${tally.challengesFailed}; largest maxnumber ${tally.maxnumber.toLocaleString("en-US")}`,
  );
  const inserts = Object.entries(tally.inserts).map(
    ([status, n]) => [Number(status), n] as [number, number],
  );
  const other = inserts
    .filter(([status]) => status !== 201 && status !== 429)
    .reduce((sum, [, n]) => sum + n, 0);
  line(
    "inserts",
    `201 × ${tally.inserts[201] ?? 0}, 429 × ${tally.inserts[429] ?? 0}, other × ${other}${other ? ` (${statusList(inserts.filter(([status]) => status !== 201 && status !== 429))})` : ""}; with a proof ${tally.insertsWithProof}, with a pending ticket ${tally.insertsPending}`,
  );
  attackOutcome(record, addresses.length === 1 ? 20 : 40, addresses.length === 1 ? 150 : undefined);
}

interface LoadContext {
  backendUrl: string;
  anonKey: string;
  siteUrl: string;
  browser: Browser;
  /** A tag for this run's e-mail addresses. */
  run: string;
  solverRates: ReturnType<typeof measureSolvers> | undefined;
}

async function runLoad(
  options: FloodOptions,
  ctx: LoadContext,
): Promise<{ attack: Attack; real: RealSubmission[] }> {
  const visit =
    (answers: (index: number) => Parameters<typeof submitThroughPage>[3]) => (index: number) =>
      submitThroughPage(ctx.browser, ctx.siteUrl, index, answers(index));
  const visitors = () => {
    const answers = visit((index) => visitorAnswers(index, ctx.run));
    return options.every === undefined
      ? visitorsInTurn(options.real, answers)
      : visitorsOnSchedule(options.real, options.every * 1000, answers);
  };
  switch (options.mode) {
    case "direct": {
      log(
        `${options.flood} direct POSTs from ${DIRECT_FROM} while ${options.real} visitors${options.every ? ` (one every ${options.every} s)` : ""} submit through the page in Chromium…`,
      );
      const [result, real] = await Promise.all([
        directFlood(ctx.backendUrl, ctx.anonKey, options.flood),
        visitors(),
      ]);
      return { attack: { kind: "direct", result }, real };
    }
    case "solving": {
      const addresses = attackerAddresses(options.addresses);
      log(
        `${options.seconds} s of solving attacker from ${addresses.length} address(es) while ${options.real} visitors${options.every ? ` (one every ${options.every} s)` : ""} submit through the page in Chromium…`,
      );
      const [result, real] = await Promise.all([
        solvingAttack(
          {
            url: ctx.backendUrl,
            anonKey: ctx.anonKey,
            addresses,
            seconds: options.seconds,
            solverRates: ctx.solverRates,
          },
          log,
        ),
        visitors(),
      ]);
      return { attack: { kind: "solving", result }, real };
    }
    case "venue": {
      const shared = new Set(
        Array.from({ length: options.sameQuestion }, (_, k) =>
          Math.floor(((k + 0.5) * options.real) / options.sameQuestion),
        ),
      );
      log(
        `${options.real} visitors through the page from 127.0.0.1, one every ${options.every} s (${shared.size} asking the same question)…`,
      );
      const real = await visitorsOnSchedule(
        options.real,
        (options.every ?? 15) * 1000,
        visit((index) => venueAnswers(index, ctx.run, shared.has(index))),
      );
      return { attack: { kind: "none" }, real };
    }
  }
}

async function attackerKeys(db: PGlite, options: FloodOptions): Promise<Set<string>> {
  const addresses =
    options.mode === "direct"
      ? [DIRECT_FROM]
      : options.mode === "solving"
        ? attackerAddresses(options.addresses)
        : [];
  return new Set(await Promise.all(addresses.map((address) => clientKey(db, address))));
}

async function main(): Promise<number> {
  const options = parseFloodOptions(process.argv.slice(2));
  const info = await buildOrReuse(options.reuseBuild, log);
  const executable = requireChromium();
  const backend = await startLocalBackend({
    port: info.backendPort,
    notifications: { catcher: { port: 0 }, digestIntervalMs: 60_000 },
  });
  const site = await startStaticServer({ root: PUBLIC_DIR, host: "127.0.0.1" });
  const browser = await chromium.launch({
    executablePath: executable.executablePath,
    args: CHROMIUM_FLAGS.filter((flag) => !flag.startsWith("--headless")),
  });
  try {
    const settings = await screeningSettings(backend.db);
    // The solver ways are timed before any load, so the fastest one wins on merit.
    const solverRates = options.mode === "solving" ? measureSolvers() : undefined;
    const firstId = await lastRequestId(backend.db);
    const mail = watchStaffMail(backend.notifier!.catcher!);
    const startedAt = Date.now();
    const run = startedAt.toString(36);
    const { attack, real } = await runLoad(options, {
      backendUrl: backend.url,
      anonKey: backend.anonKey,
      siteUrl: site.url,
      browser,
      run,
      solverRates,
    });

    const lastSent = Math.max(
      ...real.map((submission) => submission.tappedAt),
      attack.kind === "direct"
        ? attack.result.lastSentAt
        : attack.kind === "solving"
          ? attack.result.tally.lastSentAt
          : 0,
    );
    log(
      `load over at +${Math.round((Date.now() - startedAt) / 1000)} s; waiting for every stored request to reach staff (at most ${options.waitMinutes} min after the last submission)…`,
    );
    const deadline = lastSent + options.waitMinutes * 60_000;
    const outcome = await waitForStaff(backend.db, mail, firstId, deadline, log);
    await backend.notifier!.idle();
    mail.stop();
    const record: RunRecord = {
      options,
      startedAt,
      settings,
      mail,
      outcome,
      deadline,
      attackerKeys: await attackerKeys(backend.db, options),
      real,
    };

    console.log("");
    console.log(
      `=== bench:flood --mode ${options.mode}${options.mode === "solving" ? ` --addresses ${options.addresses}` : ""} (${caseName(options)}) ===`,
    );
    settingsAndWait(record);
    if (attack.kind === "direct") directBlock(record, attack.result);
    if (attack.kind === "solving") solvingBlock(record, attack.result);
    if (attack.kind !== "none") digestLines(record);
    const withHeaders = real.find((submission) => Object.keys(submission.headers).length > 0);
    const differences =
      attack.kind === "solving" && withHeaders
        ? pageHeaderDifferences(withHeaders.headers, backend.anonKey)
        : undefined;
    const figures = visitorBlock(record, options.real, differences);
    if (attack.kind === "none") {
      digestLines(record);
      line(
        "staff e-mails in all",
        `${mail.singles.length + mail.digests.length} (${mail.singles.length} one by one, ${mail.digests.length} digests)`,
      );
    }
    visitorGoals(record, figures, options.real);
    const attackRows =
      attack.kind === "none"
        ? 0
        : record.outcome.requests.filter(
            (request) => request.clientKey && record.attackerKeys.has(request.clientKey),
          ).length;
    const realRows = outcome.requests.filter((request) =>
      real.some((submission) => submission.email === request.email),
    ).length;
    console.log(
      `Rows added to the database: ${outcome.requests.length} (attacker ${attackRows}, real ${realRows}, other ${outcome.requests.length - attackRows - realRows}); staff e-mails caused by the attack: ${attack.kind === "none" ? "no attack" : attackMail(record).total}`,
    );
    return 0;
  } finally {
    await browser.close();
    await site.close();
    await backend.close();
  }
}

runCli(main);
