/**
 * `npm run bench:proof`: how long the page proof (src/lib/form-proof.ts) takes a visitor's phone,
 * and what it costs a flooder.
 *
 * 1. The visitor: N fresh challenges from the real migration (public.form_challenge() in an
 *    in-memory PGlite) are solved in headless Chromium by the production worker code
 *    (src/lib/form-proof.worker.ts bundled and minified by esbuild, as webpack ships it: one
 *    Worker per challenge, started as the page starts it). DevTools cannot slow a worker's CPU
 *    (Emulation.setCPUThrottlingRate on a worker target answers "Operation is only supported for
 *    pages, not workers", and the page's rate leaves workers at full speed), so the same solver
 *    also runs on the page's main thread with the CPU slowed 4×, and the worker's times are
 *    also shown multiplied by 4. Prints the solve times (median, p90, max), the numbers tried,
 *    the hash rates, and the worst case (all maxnumber numbers) at 4×.
 * 2. The flooder: SHA-256 hashes per second on this machine's Node (one core, synchronous
 *    node:crypto, the fastest of the plain ways in flood/solver.ts), and what a request then costs
 *    on average and at worst.
 *
 * The challenges' price depends on how many the address asked for this hour
 * (20261126100000_screening_settings.sql): each is issued from an address of its own
 * (TEST-NET-2) that has had exactly `--after N` challenges (N rows in
 * private.form_challenges_issued under its key), so all are of one maxnumber: `--after 40` is a
 * visitor's phone at a venue whose address has sent 40 requests this hour.
 *
 * Usage: npm run bench:proof [-- --runs N (default 30)] [--cpu R (default 4)] [--after N (default 0)]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { build } from "esbuild";
import { chromium as playwrightChromium, type CDPSession, type Page } from "playwright-core";
import type { PGlite } from "@electric-sql/pglite";
import { openDatabase } from "../../local-backend/database";
import { uniqueAddress, visitorHeaders } from "../../local-backend/test-support/helpers";
import type { FormChallenge } from "../../src/lib/form-proof";
import { CHROMIUM_FLAGS, requireChromium } from "../lib/chromium";
import { runCli, wholeNumberOption } from "../lib/cli";
import { startStaticServer } from "../lib/static-server";
import { PROJECT_ROOT } from "../lib/test-build";
import { fastest, measureSolvers } from "./flood/solver";

type Solve = { ms: number; tried: number };

const PAGE = `<!doctype html><meta charset="utf-8"><title>page proof bench</title><script src="/main-thread-solver.js"></script><script>
  window.solveOnce = (challenge) => new Promise((resolve, reject) => {
    const started = performance.now();
    const worker = new Worker("/form-proof.worker.js");
    worker.onmessage = (event) => {
      worker.terminate();
      if (!event.data.payload) return reject(new Error(event.data.error));
      resolve({ ms: performance.now() - started, tried: JSON.parse(atob(event.data.payload)).number + 1 });
    };
    worker.onerror = (event) => reject(new Error(event.message));
    worker.postMessage(challenge);
  });
</script>`;

/** The worker code as the site ships it: one minified script (webpack's worker chunk is the same modules). */
async function bundleWorker(dir: string): Promise<number> {
  const outfile = path.join(dir, "form-proof.worker.js");
  await build({
    entryPoints: [path.join(PROJECT_ROOT, "src/lib/form-proof.worker.ts")],
    bundle: true,
    minify: true,
    format: "iife",
    target: "es2020",
    outfile,
    logLevel: "silent",
  });
  // The same solver on the main thread, which DevTools can slow down.
  await build({
    stdin: {
      contents: `import { solveChallenge } from "altcha-lib/v1";
        window.solveOnMainThread = async (c) => {
          const started = performance.now();
          const solution = await solveChallenge(c.challenge, c.salt, c.algorithm, c.maxnumber).promise;
          return { ms: performance.now() - started, tried: solution.number + 1 };
        };`,
      resolveDir: PROJECT_ROOT,
    },
    bundle: true,
    minify: true,
    format: "iife",
    target: "es2020",
    outfile: path.join(dir, "main-thread-solver.js"),
    logLevel: "silent",
  });
  fs.writeFileSync(path.join(dir, "index.html"), PAGE);
  return fs.statSync(outfile).size;
}

type Solvers = {
  solveOnce: (c: FormChallenge) => Promise<Solve>;
  solveOnMainThread: (c: FormChallenge) => Promise<Solve>;
};

async function solveAll(
  page: Page,
  challenges: FormChallenge[],
  where: keyof Solvers,
): Promise<Solve[]> {
  const results: Solve[] = [];
  for (const challenge of challenges) {
    results.push(
      await page.evaluate(([c, solver]) => (window as unknown as Solvers)[solver](c), [
        challenge,
        where,
      ] as const),
    );
  }
  return results;
}

function summary(solves: Solve[], factor = 1) {
  const ms = solves.map((s) => s.ms * factor).sort((a, b) => a - b);
  const hashes = solves.reduce((sum, s) => sum + s.tried, 0);
  return {
    median: quantile(ms, 0.5),
    p90: quantile(ms, 0.9),
    max: ms[ms.length - 1]!,
    rate: hashes / (ms.reduce((a, b) => a + b, 0) / 1000),
  };
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

/** A challenge from a fresh address that has had `after` challenges this hour. */
async function challengeAfter(db: PGlite, after: number): Promise<FormChallenge> {
  return db.transaction(async (tx) => {
    await tx.query("select set_config('request.headers', $1, true)", [
      JSON.stringify(visitorHeaders(uniqueAddress())),
    ]);
    if (after > 0) {
      await tx.query(
        "insert into private.form_challenges_issued (client_key) select private.request_client_key() from generate_series(1, $1)",
        [after],
      );
    }
    return (await tx.query<{ c: FormChallenge }>("select public.form_challenge() as c")).rows[0]!.c;
  });
}

function countOption(value: string | undefined, name: string): number {
  if (value === undefined) return 0;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0)
    throw new Error(`--${name} needs a whole number ≥ 0 (got "${value}").`);
  return number;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { runs: { type: "string" }, cpu: { type: "string" }, after: { type: "string" } },
  });
  const runs = wholeNumberOption(values.runs, "runs", 30);
  const cpu = wholeNumberOption(values.cpu, "cpu", 4);
  const after = countOption(values.after, "after");

  const { db } = await openDatabase();
  const challenges: FormChallenge[] = [];
  for (let i = 0; i < runs + 1; i += 1) {
    challenges.push(await challengeAfter(db, after));
  }
  await db.close();
  const maxnumber = challenges[0]!.maxnumber;
  if (challenges.some((challenge) => challenge.maxnumber !== maxnumber))
    throw new Error("the challenges came with different maxnumbers");

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-proof-"));
  const workerBytes = await bundleWorker(dir);
  const server = await startStaticServer({ root: dir });
  const browser = await playwrightChromium.launch({
    executablePath: requireChromium().executablePath,
    args: [...CHROMIUM_FLAGS],
  });
  try {
    const page = await browser.newPage();
    const cdp: CDPSession = await page.context().newCDPSession(page);
    await page.goto(`${server.url}/index.html`);
    await solveAll(page, challenges.slice(0, 1), "solveOnce"); // the worker script in the HTTP cache, as after the first focus
    const inWorker = await solveAll(page, challenges.slice(1), "solveOnce");
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: cpu });
    const onMainThread = await solveAll(page, challenges.slice(1), "solveOnMainThread");
    const solverRates = measureSolvers(1000, 1);
    const solver = fastest(solverRates);
    const nodeRate = solverRates.get(solver)!;

    const f = (n: number) => Math.round(n).toLocaleString("en-US");
    const line = (label: string, s: ReturnType<typeof summary>) =>
      console.log(
        `  ${label.padEnd(34)} median ${f(s.median).padStart(6)} ms, p90 ${f(s.p90).padStart(6)} ms, max ${f(s.max).padStart(6)} ms, ${f(s.rate)} hashes/s`,
      );
    const throttled = summary(onMainThread);
    const worker = summary(inWorker);
    const worker4 = summary(inWorker, cpu);
    const tried = inWorker.map((s) => s.tried).sort((a, b) => a - b);
    console.log(
      `page proof: maxnumber ${f(maxnumber)} (on average ${f(maxnumber / 2)} hashes), the price of an address's challenge #${after + 1} this hour (--after ${after}); worker script ${f(workerBytes)} bytes minified`,
    );
    console.log(
      `machine: ${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(1)}; ${runs} challenges, numbers tried median ${f(quantile(tried, 0.5))}, max ${f(tried[tried.length - 1]!)}`,
    );
    console.log("visitor (headless Chromium, the same challenges each way):");
    line("Web Worker, full speed", worker);
    line(`Web Worker x ${cpu} (estimate)`, worker4);
    line(`main thread, CPU ${cpu}x slower`, throttled);
    const slowest = Math.min(throttled.rate, worker4.rate);
    console.log(
      `  worst case at ${cpu}x (all ${f(maxnumber)} numbers at ${f(slowest)} hashes/s): ${(maxnumber / slowest).toFixed(1)} s`,
    );
    console.log(
      `flooder (this machine's Node, one core, synchronous node:crypto, the fastest way: ${solver}):`,
    );
    console.log(
      `  ${f(nodeRate)} SHA-256 hashes/s -> ${((maxnumber / 2 / nodeRate) * 1000).toFixed(0)} ms per request on average, ${((maxnumber / nodeRate) * 1000).toFixed(0)} ms at worst`,
    );
    console.log(
      `  = about ${f(nodeRate / (maxnumber / 2))} proofs per second per core, each needing its own rpc/form_challenge call`,
    );
    return 0;
  } finally {
    await browser.close();
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

runCli(main);
