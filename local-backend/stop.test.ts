/**
 * Stopping `npm run backend` the ways people do, under load: Ctrl-C in its terminal (SIGINT to
 * the whole process group), and SIGTERM to the npm process alone. Each must end in a clean
 * close: the ready line's promise kept (every 201 stored), the database closed, the lock removed.
 */
import fs from "node:fs";
import path from "node:path";

import { loadRequests } from "./requests";
import { insertLoad, spawnBackend, tempDataDir, waitForGroupExit } from "./test-support/processes";

jest.setTimeout(120_000);

const CYCLES = 2;

async function expectCleanStop(
  dataDir: string,
  output: string,
  acknowledged: string[],
): Promise<void> {
  expect(output).toContain("Local backend stopped.");
  expect(output).not.toContain("exiting without waiting");
  expect(fs.existsSync(path.join(dataDir, "server.lock"))).toBe(false);
  const stored = new Set((await loadRequests(dataDir)).requests.map((request) => request.email));
  expect(acknowledged.filter((email) => !stored.has(email))).toEqual([]);
}

test(`one Ctrl-C under load (SIGINT to the process group) closes cleanly, ${CYCLES} times in a row`, async () => {
  const dataDir = tempDataDir("stop-sigint-");
  for (let cycle = 0; cycle < CYCLES; cycle += 1) {
    const backend = spawnBackend(dataDir);
    const url = await backend.ready;
    const load = insertLoad(url, 20, `sigint${cycle}`);
    await load.running;
    await new Promise((resolve) => setTimeout(resolve, 400 + cycle * 150));
    process.kill(-backend.child.pid!, "SIGINT");
    expect(await waitForGroupExit(backend.child.pid!)).toBe(true);
    await load.stop();
    expect(load.acknowledged.length).toBeGreaterThan(0);
    await expectCleanStop(dataDir, backend.output(), load.acknowledged);
  }
});

test("SIGTERM to npm alone stops the backend it started (no orphan keeps the folder)", async () => {
  const dataDir = tempDataDir("stop-npm-");
  const backend = spawnBackend(dataDir);
  const url = await backend.ready;
  const load = insertLoad(url, 5, "npmterm");
  await load.running;
  await new Promise((resolve) => setTimeout(resolve, 300));
  process.kill(backend.child.pid!, "SIGTERM");
  await backend.exited;
  const gone = await waitForGroupExit(backend.child.pid!, 10_000);
  if (!gone) process.kill(-backend.child.pid!, "SIGKILL");
  expect(gone).toBe(true);
  await load.stop();
  await expectCleanStop(dataDir, backend.output(), load.acknowledged);
});
