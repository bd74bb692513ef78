/**
 * `npm run bench:crash`: the crash probe of issue 13. Each cycle starts `npm run backend` on one
 * data folder as its own process group, lets 20 clients insert, kills the whole group with
 * SIGKILL at a random moment, restarts it, and compares the acknowledged inserts (201) with the
 * stored rows. Then one clean stop (SIGINT) and restart. Prints acknowledged, stored, lost and
 * duplicated per cycle and in total, and the restart times after a crash and after a clean stop.
 *
 *   npm run bench:crash [-- --cycles N]     (default 6)
 */
import fs from "node:fs";
import { performance } from "node:perf_hooks";

import { parseOptions } from "../../local-backend/cli-args";
import { loadRequests } from "../../local-backend/requests";
import {
  insertLoad,
  spawnBackend,
  tempDataDir,
  waitForGroupExit,
  type BackendProcess,
} from "../../local-backend/test-support/processes";
import { median } from "../lib/audit-summary";

const CLIENTS = 20;

async function start(
  dataDir: string,
): Promise<{ backend: BackendProcess; url: string; ms: number }> {
  const began = performance.now();
  const backend = spawnBackend(dataDir);
  const url = await backend.ready;
  return { backend, url, ms: performance.now() - began };
}

async function main(): Promise<number> {
  const values = parseOptions(process.argv.slice(2), { cycles: { type: "string" } });
  const cycles = Number(values.cycles ?? 6);
  const dataDir = tempDataDir("bench-crash-");
  console.log(
    `Crash probe: ${cycles} cycles, ${CLIENTS} clients, SIGKILL of the process group at a random moment (data in ${dataDir})\n`,
  );
  const acknowledged: string[] = [];
  const crashRestarts: number[] = [];
  let running = await start(dataDir);
  let failures = 0;
  for (let cycle = 1; cycle <= cycles; cycle += 1) {
    const load = insertLoad(running.url, CLIENTS, `crash${cycle}.${process.pid}`);
    const killAfter = 300 + Math.floor(Math.random() * 1700);
    await new Promise((resolve) => setTimeout(resolve, killAfter));
    process.kill(-running.backend.child.pid!, "SIGKILL");
    await waitForGroupExit(running.backend.child.pid!);
    await load.stop();
    acknowledged.push(...load.acknowledged);

    running = await start(dataDir);
    crashRestarts.push(running.ms);
    const stored = (await loadRequests(dataDir)).requests.map((request) => request.email);
    const counts = new Map<string, number>();
    for (const email of stored) counts.set(email, (counts.get(email) ?? 0) + 1);
    const lost = acknowledged.filter((email) => !counts.has(email)).length;
    const duplicated = [...counts.values()].filter((count) => count > 1).length;
    if (lost > 0 || duplicated > 0) failures += 1;
    console.log(
      `cycle ${cycle}: killed after ${killAfter} ms, ${load.acknowledged.length} acknowledged this cycle; ` +
        `total acknowledged ${acknowledged.length}, stored ${stored.length}, lost ${lost}, duplicated ${duplicated}; ` +
        `restart after crash ${running.ms.toFixed(0)} ms`,
    );
  }

  process.kill(-running.backend.child.pid!, "SIGINT");
  await waitForGroupExit(running.backend.child.pid!);
  const clean = fs.existsSync(`${dataDir}/server.lock`) ? "lock left behind!" : "lock removed";
  running = await start(dataDir);
  const cleanRestart = running.ms;
  process.kill(-running.backend.child.pid!, "SIGINT");
  await waitForGroupExit(running.backend.child.pid!);

  console.log(
    `\nrestart to ready line: after a crash median ${median(crashRestarts).toFixed(0)} ms ` +
      `(min ${Math.min(...crashRestarts).toFixed(0)}, max ${Math.max(...crashRestarts).toFixed(0)}); ` +
      `after a clean stop ${cleanRestart.toFixed(0)} ms (${clean})`,
  );
  console.log(
    failures === 0
      ? "Every acknowledged insert was stored exactly once."
      : `${failures} cycles lost or duplicated inserts.`,
  );
  fs.rmSync(dataDir, { recursive: true, force: true });
  return failures === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`Crash probe failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
