/**
 * `npm run bench:backend`: how the local backend takes meeting requests.
 *
 * 1. 300 sequential inserts, then 500 from 50 clients at once, through supabase-js: in memory, on
 *    a data folder (what the journal's fsync and the lock checks cost), and in memory with staff
 *    notifications on as `npm start` runs them (the Edge Function under Deno, the mail catcher;
 *    each insert with a page proof solved beforehand, as the page's worker has it ready at the
 *    tap). With notifications: e-mails caught, requests with two or more, requests without one,
 *    and when the last e-mail arrived.
 * 2. Cold start on a data folder holding 1,000 requests: in-process (3 runs, and the first insert
 *    after it), and as a fresh `npm run backend` process to its ready line after a clean stop and
 *    after a SIGKILL (PostgreSQL's crash recovery; that nothing acknowledged is lost is
 *    local-backend/crash.test.ts's to prove).
 *
 * The inserts come from one address, so the screening's caps are lifted (LIFTED_SCREENING): what
 * is measured is the insert path, screening included. Loopback only; gives up after 10 minutes.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { createClient, type SupabaseClient } from "@supabase/supabase-js";

import { startLocalBackend, type LocalBackend } from "../../local-backend/server";
import { LIFTED_SCREENING } from "../../local-backend/test-helpers";
import { FORM_PROOF_HEADER, type FormChallenge } from "../../src/lib/form-proof";
import { runCli } from "../lib/cli";
import { solveInNode } from "../lib/form-proof-solver";
import { median, spread } from "../lib/stats";
import { PROJECT_ROOT } from "../lib/test-build";

const WARM_UP = 20;
const SEQUENTIAL = 300;
const CONCURRENT = 500;
const CLIENTS = 50;
const SEED_ROWS = 1000;

const ms = (value: number) => `${value.toFixed(1)} ms`;
const start = (options: { dataDir?: string; notify?: boolean } = {}) =>
  startLocalBackend({
    port: 0,
    dataDir: options.dataDir,
    screening: LIFTED_SCREENING,
    notifications: options.notify ? { catcher: { port: 0 }, sweepIntervalMs: 1_000 } : undefined,
  });

let sequence = 0;

/** One insert with a new e-mail address (a proof when given); its latency. */
async function timedInsert(supabase: SupabaseClient, proof?: string): Promise<number> {
  sequence += 1;
  const row = {
    name: `Bench Visitor ${sequence}`,
    email: `bench-${process.pid}-${sequence}@example.org`,
    organization: "Benchmark Transit",
    message: `Fleet Size: ${sequence} vehicles\nChallenges/Questions: request #${sequence}`,
  };
  const started = performance.now();
  let insert = supabase.from("contacts").insert(row);
  if (proof) insert = insert.setHeader(FORM_PROOF_HEADER, proof);
  const { error } = await insert;
  if (error) throw new Error(`insert failed: ${error.code ?? ""} ${error.message}`);
  return performance.now() - started;
}

/** A page proof as the page's worker has it ready: a challenge asked for and solved. */
async function solvedProof(backend: LocalBackend): Promise<string> {
  const response = await fetch(`${backend.url}/rest/v1/rpc/form_challenge`, {
    method: "POST",
    headers: { apikey: backend.anonKey, "Content-Type": "application/json" },
    body: "{}",
  });
  const payload = solveInNode((await response.json()) as FormChallenge).payload;
  if (!payload) throw new Error(`no solvable challenge (HTTP ${response.status})`);
  return payload;
}

function printLatencies(label: string, latencies: number[], wallMs: number): void {
  const rate = (latencies.length / wallMs) * 1000;
  console.log(
    `  ${label.padEnd(28)} ${latencies.length} inserts, ${rate.toFixed(0)} req/s, ${spread(latencies, ms)}`,
  );
}

/** Sequential, then concurrent inserts against a fresh backend. */
async function measureInserts(label: string, options: { dataDir?: string; notify?: boolean }) {
  console.log(`${label}:`);
  const backend = await start(options);
  const supabase = createClient(backend.url, backend.anonKey, { auth: { persistSession: false } });
  try {
    const proofs: string[] = [];
    if (options.notify)
      for (let i = 0; i < WARM_UP + SEQUENTIAL + CONCURRENT; i += 1)
        proofs.push(await solvedProof(backend));
    for (let i = 0; i < WARM_UP; i += 1) await timedInsert(supabase, proofs.pop());
    const sequential: number[] = [];
    const began = performance.now();
    for (let i = 0; i < SEQUENTIAL; i += 1)
      sequential.push(await timedInsert(supabase, proofs.pop()));
    printLatencies("sequential (1 client)", sequential, performance.now() - began);
    const concurrent: number[] = [];
    let sent = 0;
    const burstBegan = performance.now();
    const client = async () => {
      for (; sent < CONCURRENT; sent += 1)
        concurrent.push(await timedInsert(supabase, proofs.pop()));
    };
    await Promise.all(Array.from({ length: CLIENTS }, client));
    printLatencies(`concurrent (${CLIENTS} clients)`, concurrent, performance.now() - burstBegan);
    if (options.notify) await printStaffMail(backend, burstBegan);
  } finally {
    await backend.close();
  }
}

/** Waits for one e-mail per stored request, then a few retry sweeps more: nothing may follow. */
async function printStaffMail(backend: LocalBackend, burstBegan: number): Promise<void> {
  const catcher = backend.notifier!.catcher!;
  const total = WARM_UP + SEQUENTIAL + CONCURRENT;
  await catcher.waitFor(total, 300_000);
  const lastMail = performance.now();
  await backend.notifier!.idle();
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  const perRequest = new Map<string, number>();
  for (const mail of catcher.messages)
    perRequest.set(mail.replyTo ?? "", (perRequest.get(mail.replyTo ?? "") ?? 0) + 1);
  const duplicated = [...perRequest.values()].filter((n) => n > 1).length;
  console.log(
    `  staff e-mails: ${catcher.messages.length} for ${total} requests, ${duplicated} requests with 2+, ${total - perRequest.size} without; the last ${(lastMail - burstBegan).toFixed(0)} ms after the concurrent burst began`,
  );
}

/** `npm run backend` on the data folder, timed to its ready line, then stopped with `signal`. */
function processStart(dataDir: string, signal: NodeJS.Signals): Promise<number> {
  const began = performance.now();
  const cli = path.join(PROJECT_ROOT, "local-backend", "cli.ts");
  const child = spawn(
    process.execPath,
    ["--import", "tsx", cli, "--port", "0", "--quiet", "--data-dir", dataDir],
    { cwd: PROJECT_ROOT },
  );
  let output = "";
  let readyMs: number | undefined;
  const read = (chunk: Buffer) => {
    output += chunk.toString();
    if (readyMs === undefined && output.includes("Local backend ready at")) {
      readyMs = performance.now() - began;
      child.kill(signal);
    }
  };
  child.stdout.on("data", read);
  child.stderr.on("data", read);
  return new Promise((resolve, reject) =>
    child.on("exit", () =>
      readyMs === undefined
        ? reject(new Error(`the backend did not start: ${output}`))
        : resolve(readyMs),
    ),
  );
}

async function measureColdStarts(dataDir: string): Promise<void> {
  const seeded = await start({ dataDir });
  await seeded.db.query(
    `insert into public.contacts (name, email, organization, message)
     select 'Seeded ' || i, 'seed-' || i || '@example.org', 'Seed Transit', repeat('Lorem ipsum dolor sit amet. ', 20)
       from generate_series(1, $1::int) as i`,
    [SEED_ROWS],
  );
  await seeded.close();
  const starts: number[] = [];
  const firstInserts: number[] = [];
  for (let run = 0; run < 3; run += 1) {
    const began = performance.now();
    const backend = await start({ dataDir });
    starts.push(performance.now() - began);
    const supabase = createClient(backend.url, backend.anonKey, {
      auth: { persistSession: false },
    });
    firstInserts.push(await timedInsert(supabase));
    await backend.close();
  }
  console.log(`cold start, data folder with ${SEED_ROWS}+ requests (3 runs):`);
  console.log(
    `  start to ready: median ${median(starts).toFixed(0)} ms (min ${Math.min(...starts).toFixed(0)}, max ${Math.max(...starts).toFixed(0)} ms); first insert after start: median ${ms(median(firstInserts))}`,
  );
  const afterClean = await processStart(dataDir, "SIGKILL");
  const afterCrash = await processStart(dataDir, "SIGTERM");
  console.log(
    `  a fresh process (npm run backend) to its ready line: after a clean stop ${afterClean.toFixed(0)} ms, after SIGKILL ${afterCrash.toFixed(0)} ms`,
  );
}

async function main(): Promise<void> {
  setTimeout(() => {
    console.error("bench:backend gave up after 10 minutes.");
    process.exit(1);
  }, 600_000).unref();
  console.log(`Local backend (Node ${process.version}, ${os.cpus().length} cores)\n`);
  const folders = [0, 1].map(() => fs.mkdtempSync(path.join(os.tmpdir(), "bench-backend-")));
  try {
    await measureInserts("in memory", {});
    await measureInserts("data folder (journal fsync, lock checks)", { dataDir: folders[0] });
    await measureInserts("in memory, staff notifications on", { notify: true });
    await measureColdStarts(folders[1]!);
  } finally {
    for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
  }
}

runCli(main);
