/**
 * `npm run backend` under 20 inserting clients, killed (SIGKILL to the group) after 60 inserts:
 * after a restart every acknowledged insert is stored exactly once, and the journal agrees.
 */
import { readJournal } from "./journal";
import { loadRequests } from "./requests";
import { insertLoad, spawnBackend, tempDataDir, waitForGroupExit } from "./test-support/processes";

jest.setTimeout(120_000);

test("SIGKILL under load loses and duplicates nothing that was acknowledged", async () => {
  const dataDir = tempDataDir("crash-");
  const first = spawnBackend(dataDir);
  const load = insertLoad(await first.ready, 20, "crash");
  while (load.acknowledged.length < 60) await new Promise((resolve) => setTimeout(resolve, 5));
  process.kill(-first.child.pid!, "SIGKILL");
  expect(await waitForGroupExit(first.child.pid!)).toBe(true);
  await load.stop();

  const second = spawnBackend(dataDir);
  await second.ready;
  try {
    const stored = (await loadRequests(dataDir)).requests.map((request) => request.email);
    expect(new Set(stored).size).toBe(stored.length);
    const storedSet = new Set(stored);
    expect(load.acknowledged.filter((email) => !storedSet.has(email))).toEqual([]);
    const journaled = [...readJournal(dataDir).values()].map((request) => request.email).sort();
    expect(journaled).toEqual([...stored].sort());
  } finally {
    process.kill(-second.child.pid!, "SIGINT");
    await waitForGroupExit(second.child.pid!);
  }
});
