/**
 * `npm run bench:backend`: how fast the embedded local backend takes meeting requests.
 *
 *   1. sequential inserts through supabase-js (N=300, one at a time)
 *   2. concurrent inserts through supabase-js (N=500 from 50 clients at once)
 *      (1 and 2 in memory, then with a data folder: what the journal's fsync and the lock checks cost)
 *   3. cold start with an existing data folder holding ~1000 requests (3 runs), in-process
 *      and as a fresh `npm run backend` process (which also pays for loading PGlite's WebAssembly)
 *
 * Loopback only, bounded in count and time (it gives up after 3 minutes). Every insert uses
 * a different e-mail address, since the database allows 5 requests per address per hour. The
 * inserts come from one address without the page's proof, so the screening's caps are lifted
 * (LIFTED_SCREENING): what is measured is the insert path, screening included.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";

import { createClient, type SupabaseClient } from "@supabase/supabase-js";

import { startLocalBackend } from "../../local-backend/server";
import { LIFTED_SCREENING } from "../../local-backend/test-support/helpers";
import { LOCAL_ANON_KEY } from "../../build-time/local-backend-defaults";

const SEQUENTIAL = 300;
const CONCURRENT = 500;
const CLIENTS = 50;
const SEED_ROWS = 1000;
const COLD_STARTS = 3;
const GIVE_UP_AFTER_MS = 180_000;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)]!;
}

function summary(label: string, latencies: number[], wallMs: number): string {
  const sorted = [...latencies].sort((a, b) => a - b);
  const throughput = (latencies.length / wallMs) * 1000;
  return `${label.padEnd(34)} ${String(latencies.length).padStart(4)} inserts  ${throughput.toFixed(0).padStart(5)} req/s  p50 ${percentile(sorted, 50).toFixed(1).padStart(6)} ms  p95 ${percentile(sorted, 95).toFixed(1).padStart(6)} ms  max ${sorted[sorted.length - 1]!.toFixed(1).padStart(6)} ms`;
}

let sequence = 0;
function row(): { name: string; email: string; organization: string; message: string } {
  sequence += 1;
  return {
    name: "Bench Visitor",
    email: `bench-${process.pid}-${sequence}@example.org`,
    organization: "Benchmark Transit",
    message: `Fleet size: 25\nProducts: scheduling, dispatch\nRequest #${sequence}`,
  };
}

async function timedInsert(supabase: SupabaseClient): Promise<number> {
  const started = performance.now();
  const { error } = await supabase.from("contacts").insert(row());
  const elapsed = performance.now() - started;
  if (error) throw new Error(`insert failed: ${error.code ?? ""} ${error.message}`);
  return elapsed;
}

/** Sequential, then concurrent inserts through supabase-js against a fresh backend. */
async function measureInserts(dataDir: string | undefined, label: string): Promise<void> {
  console.log(`${label}:`);
  const backend = await startLocalBackend({ port: 0, dataDir, screening: LIFTED_SCREENING });
  const supabase = createClient(backend.url, LOCAL_ANON_KEY, { auth: { persistSession: false } });
  try {
    for (let i = 0; i < 20; i += 1) await timedInsert(supabase); // warm-up

    const sequential: number[] = [];
    let started = performance.now();
    for (let i = 0; i < SEQUENTIAL; i += 1) sequential.push(await timedInsert(supabase));
    console.log(summary(`  sequential (1 client)`, sequential, performance.now() - started));

    const concurrent: number[] = [];
    let next = 0;
    started = performance.now();
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (next < CONCURRENT) {
          next += 1;
          concurrent.push(await timedInsert(supabase));
        }
      }),
    );
    console.log(
      summary(`  concurrent (${CLIENTS} clients)`, concurrent, performance.now() - started),
    );
  } finally {
    await backend.close();
  }
}

async function main(): Promise<void> {
  console.log(`Local backend benchmark (Node ${process.version}, ${os.cpus().length} cores)\n`);

  await measureInserts(undefined, "in memory");
  const insertsDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-local-backend-inserts-"));
  try {
    await measureInserts(insertsDir, "data folder: journal fsync + lock checks");
  } finally {
    fs.rmSync(insertsDir, { recursive: true, force: true });
  }

  // Cold start with an existing data folder.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-local-backend-"));
  try {
    let seeded = await startLocalBackend({ port: 0, dataDir, screening: LIFTED_SCREENING });
    await seeded.db.query(
      `insert into public.contacts (name, email, organization, message)
       select 'Seeded ' || i, 'seed-' || i || '@example.org', 'Seed Transit', repeat('Lorem ipsum dolor sit amet. ', 20)
         from generate_series(1, $1::int) as i`,
      [SEED_ROWS],
    );
    await seeded.close();
    const starts: number[] = [];
    const firstInserts: number[] = [];
    for (let i = 0; i < COLD_STARTS; i += 1) {
      const began = performance.now();
      seeded = await startLocalBackend({ port: 0, dataDir, screening: LIFTED_SCREENING });
      starts.push(performance.now() - began);
      firstInserts.push(
        await timedInsert(
          createClient(seeded.url, LOCAL_ANON_KEY, { auth: { persistSession: false } }),
        ),
      );
      const count = await seeded.db.query<{ n: number }>(
        "select count(*)::int as n from public.contacts",
      );
      if (i === COLD_STARTS - 1)
        console.log(
          `\ncold start, data folder with ${count.rows[0]!.n} requests (${COLD_STARTS} runs):`,
        );
      await seeded.close();
    }
    const sorted = [...starts].sort((a, b) => a - b);
    console.log(
      `  start to ready: median ${percentile(sorted, 50).toFixed(0)} ms (min ${sorted[0]!.toFixed(0)}, max ${sorted[sorted.length - 1]!.toFixed(0)} ms);` +
        ` first insert after start: median ${percentile(
          [...firstInserts].sort((a, b) => a - b),
          50,
        ).toFixed(1)} ms`,
    );
    const processStarts: number[] = [];
    for (let i = 0; i < 2; i += 1) processStarts.push(await processColdStart(dataDir));
    console.log(
      `  fresh process (node --import tsx local-backend/cli.ts, as npm run backend) to its ready line: ${processStarts.map((ms) => `${ms.toFixed(0)} ms`).join(", ")}`,
    );
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Spawns the CLI on the data folder, times it to the ready line, then stops it. */
function processColdStart(dataDir: string): Promise<number> {
  const root = path.resolve(__dirname, "..", "..");
  const began = performance.now();
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      path.join(root, "local-backend", "cli.ts"),
      "--port",
      "0",
      "--quiet",
      "--data-dir",
      dataDir,
    ],
    { cwd: root },
  );
  return new Promise((resolve, reject) => {
    let output = "";
    let readyAt: number | undefined;
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
      if (readyAt === undefined && output.includes("Local backend ready at")) {
        readyAt = performance.now() - began;
        child.kill("SIGTERM");
      }
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
    });
    child.on("exit", (code) =>
      readyAt !== undefined && code === 0
        ? resolve(readyAt)
        : reject(new Error(`CLI exited with ${code}: ${output}`)),
    );
  });
}

const guard = setTimeout(() => {
  console.error(`Benchmark gave up after ${GIVE_UP_AFTER_MS / 1000} s.`);
  process.exit(1);
}, GIVE_UP_AFTER_MS);
guard.unref();

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`Benchmark failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
