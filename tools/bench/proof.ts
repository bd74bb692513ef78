/**
 * `npm run bench:proof [-- --runs N (default 30)] [--cpu R (default 4)] [--after N (default 0)]`:
 * how long the page proof takes a visitor's phone, and what it costs a flooder.
 *
 * Challenges come from the real migration (in-memory PGlite), each for an address that has had
 * `--after N` challenges this hour. The visitor: the production worker (bundled by esbuild) solves
 * them in Chromium; DevTools cannot slow a worker's CPU, so the same solver also runs on the main
 * thread slowed R×. The flooder: SHA-256 hashes per second on one core of this machine's Node.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";

import type { PGlite } from "@electric-sql/pglite";
import { build } from "esbuild";
import type { Page } from "playwright-core";

import { openDatabase } from "../../local-backend/database";
import type { FormChallenge } from "../../src/lib/form-proof";
import { launchChromium } from "../lib/chromium";
import { runCli, wholeNumberOption } from "../lib/cli";
import { nodeHashRate } from "../lib/form-proof-solver";
import { startStaticServer } from "../lib/static-server";
import { percentile } from "../lib/stats";
import { PROJECT_ROOT } from "../lib/test-build";

type Solve = { ms: number; tried: number };

const PAGE = `<!doctype html><meta charset="utf-8"><title>page proof bench</title><script src="/main-thread-solver.js"></script><script>
  window.solveInWorker = (challenge) => new Promise((resolve, reject) => {
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

/** The same solver on the main thread, which DevTools can slow down. */
const MAIN_THREAD_SOLVER = `import { solveChallenge } from "altcha-lib/v1";
  window.solveOnMainThread = async (c) => {
    const started = performance.now();
    const solution = await solveChallenge(c.challenge, c.salt, c.algorithm, c.maxnumber).promise;
    return { ms: performance.now() - started, tried: solution.number + 1 };
  };`;

/** The page, the worker as the site ships it (one minified script) and the main-thread solver; the worker's size. */
async function writePage(dir: string): Promise<number> {
  const options = {
    bundle: true,
    minify: true,
    format: "iife",
    target: "es2020",
    logLevel: "silent",
  } as const;
  const worker = path.join(dir, "form-proof.worker.js");
  await build({
    ...options,
    entryPoints: [path.join(PROJECT_ROOT, "src/lib/form-proof.worker.ts")],
    outfile: worker,
  });
  await build({
    ...options,
    stdin: { contents: MAIN_THREAD_SOLVER, resolveDir: PROJECT_ROOT },
    outfile: path.join(dir, "main-thread-solver.js"),
  });
  fs.writeFileSync(path.join(dir, "index.html"), PAGE);
  return fs.statSync(worker).size;
}

async function solveAll(page: Page, challenges: FormChallenge[], where: string): Promise<Solve[]> {
  const solves: Solve[] = [];
  for (const challenge of challenges)
    solves.push(
      await page.evaluate(
        ([c, solver]) => (window as unknown as Record<string, (c: unknown) => Solve>)[solver]!(c),
        [challenge, where] as const,
      ),
    );
  return solves;
}

/** A challenge for an address of its own that has had `after` challenges this hour. */
async function challengeAfter(db: PGlite, after: number, index: number): Promise<FormChallenge> {
  const address = `198.51.${100 + Math.floor(index / 250)}.${(index % 250) + 1}`;
  return db.transaction(async (tx) => {
    await tx.query("select set_config('request.headers', $1, true)", [
      JSON.stringify({ "cf-connecting-ip": address }),
    ]);
    await tx.query(
      `insert into private.form_challenges_issued (client_key)
       select private.client_key(private.client_address(current_setting('request.headers', true)))
       from generate_series(1, $1)`,
      [after],
    );
    return (await tx.query<{ c: FormChallenge }>("select public.form_challenge() as c")).rows[0]!.c;
  });
}

const f = (n: number) => Math.round(n).toLocaleString("en-US");

/** One line of solve times; returns the hash rate. */
function printSolves(label: string, solves: Solve[], factor = 1): number {
  const ms = solves.map((solve) => solve.ms * factor);
  const rate = solves.reduce((sum, s) => sum + s.tried, 0) / (ms.reduce((a, b) => a + b) / 1000);
  const at = (p: number) => `${f(percentile(ms, p)).padStart(6)} ms`;
  console.log(
    `  ${label.padEnd(34)} median ${at(50)}, p90 ${at(90)}, max ${at(100)}, ${f(rate)} hashes/s`,
  );
  return rate;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { runs: { type: "string" }, cpu: { type: "string" }, after: { type: "string" } },
  });
  const runs = wholeNumberOption(values.runs, "runs", 30);
  const cpu = wholeNumberOption(values.cpu, "cpu", 4);
  const after = wholeNumberOption(values.after, "after", 0, 0);

  const { db } = await openDatabase();
  const challenges: FormChallenge[] = [];
  for (let i = 0; i <= runs; i += 1) challenges.push(await challengeAfter(db, after, i));
  await db.close();
  const maxnumber = challenges[0]!.maxnumber;
  if (challenges.some((challenge) => challenge.maxnumber !== maxnumber))
    throw new Error("the challenges came with different maxnumbers");

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-proof-"));
  const workerBytes = await writePage(dir);
  const server = await startStaticServer({ root: dir });
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.goto(`${server.url}/index.html`);
    // The worker script in the HTTP cache, as after the first focus.
    await solveAll(page, challenges.slice(0, 1), "solveInWorker");
    const inWorker = await solveAll(page, challenges.slice(1), "solveInWorker");
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: cpu });
    const onMainThread = await solveAll(page, challenges.slice(1), "solveOnMainThread");
    const nodeRate = nodeHashRate();

    const tried = inWorker.map((solve) => solve.tried);
    console.log(
      `page proof: maxnumber ${f(maxnumber)} (on average ${f(maxnumber / 2)} hashes), the price of an address's challenge #${after + 1} this hour (--after ${after}); worker script ${f(workerBytes)} bytes minified`,
    );
    console.log(
      `machine: ${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(1)}; ${runs} challenges, numbers tried median ${f(percentile(tried, 50))}, max ${f(percentile(tried, 100))}`,
    );
    console.log("visitor (headless Chromium, the same challenges each way):");
    printSolves("Web Worker, full speed", inWorker);
    const slowWorker = printSolves(`Web Worker x ${cpu} (estimate)`, inWorker, cpu);
    const slowMain = printSolves(`main thread, CPU ${cpu}x slower`, onMainThread);
    const slowest = Math.min(slowWorker, slowMain);
    console.log(
      `  worst case at ${cpu}x (all ${f(maxnumber)} numbers at ${f(slowest)} hashes/s): ${(maxnumber / slowest).toFixed(1)} s`,
    );
    console.log("flooder (this machine's Node, one core, synchronous crypto.hash()):");
    console.log(
      `  ${f(nodeRate)} SHA-256 hashes/s -> ${((maxnumber / 2 / nodeRate) * 1000).toFixed(0)} ms per request on average, ${((maxnumber / nodeRate) * 1000).toFixed(0)} ms at worst`,
    );
    console.log(
      `  = about ${f(nodeRate / (maxnumber / 2))} proofs per second per core, each needing its own rpc/form_challenge call`,
    );
  } finally {
    await browser.close();
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

runCli(main);
