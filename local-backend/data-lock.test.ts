/**
 * The data folder's lock: a stale lock is taken over whatever pid it names (a live one is
 * respected: server.test.ts), racing processes get one winner, a backend whose folder was taken
 * stops writing, and `npm run requests` and a starting backend wait for each other.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

import { acquireDataLock } from "./data-lock";
import { loadRequests } from "./requests";
import { startLocalBackend } from "./server";
import { goodRow, postJson, waitUntil } from "./test-support/helpers";
import { PROJECT_ROOT, tempDataDir } from "./test-support/processes";

jest.setTimeout(60_000);

const post = (url: string, email: string) => postJson(url, goodRow({ email }));

/** A lock as a process `pid` left it an hour ago. */
function staleLock(dataDir: string, pid: number): void {
  const lock = path.join(dataDir, "server.lock");
  fs.mkdirSync(lock);
  fs.writeFileSync(
    path.join(dataDir, "server.json"),
    JSON.stringify({ pid, kind: "server", token: "old" }),
  );
  const anHourAgo = new Date(Date.now() - 3_600_000);
  fs.utimesSync(lock, anHourAgo, anHourAgo);
}

test("a stale lock naming a running, unrelated process is taken over", async () => {
  const dataDir = tempDataDir("lock-reused-");
  const unrelated = spawn("sleep", ["30"]);
  try {
    staleLock(dataDir, unrelated.pid!);
    const lock = await acquireDataLock(dataDir, "server");
    const holder = JSON.parse(fs.readFileSync(path.join(dataDir, "server.json"), "utf8"));
    expect(holder).toMatchObject({ pid: process.pid, kind: "server" });
    await lock.release();
    expect(fs.readdirSync(dataDir)).toEqual([]);
  } finally {
    unrelated.kill();
  }
});

test("eight processes racing for a stale lock: exactly one gets it", async () => {
  const dataDir = tempDataDir("lock-race-");
  staleLock(dataDir, 999_999_999);
  // The winner holds the lock until every process has answered, so one that starts late on a
  // loaded machine still meets the winner's lock rather than a released one.
  const script = `
    const { acquireDataLock } = require(${JSON.stringify(path.join(__dirname, "data-lock.ts"))});
    setTimeout(async () => {
      try { const lock = await acquireDataLock(process.argv[2], "server"); console.log("won"); process.stdin.on("end", () => lock.release()).resume(); }
      catch { console.log("lost"); }
    }, Number(process.argv[1]) - Date.now());`;
  const at = Date.now() + 2_500;
  const children = Array.from({ length: 8 }, () =>
    spawn(process.execPath, ["--import", "tsx", "-e", script, String(at), dataDir], {
      cwd: PROJECT_ROOT,
    }),
  );
  const exited = children.map((child) => new Promise((resolve) => child.on("exit", resolve)));
  const outcomes = await Promise.all(
    children.map(
      (child) =>
        new Promise<string>((resolve) =>
          child.stdout.once("data", (chunk: Buffer) => resolve(chunk.toString().trim())),
        ),
    ),
  );
  for (const child of children) child.stdin.end();
  await Promise.all(exited);
  expect(outcomes.sort()).toEqual(["lost", "lost", "lost", "lost", "lost", "lost", "lost", "won"]);
});

test("server.lock deleted by hand: a second backend takes the folder and the first stops writing", async () => {
  const dataDir = tempDataDir("lock-deleted-");
  const lost: string[] = [];
  const first = await startLocalBackend({
    port: 0,
    dataDir,
    onDataFolderLost: (message) => lost.push(message),
  });
  expect(await post(first.url, "before@example.org")).toBe(201);
  fs.rmSync(path.join(dataDir, "server.lock"), { recursive: true });
  const second = await startLocalBackend({ port: 0, dataDir });
  try {
    expect(await post(first.url, "first@example.org").catch(() => 0)).not.toBe(201);
    expect(await post(second.url, "second@example.org")).toBe(201);
    await waitUntil(() => lost.length > 0, 5_000);
    expect(lost).toEqual([
      expect.stringMatching(/^The data folder .* was taken over by another process/),
    ]);
  } finally {
    await second.close();
    await first.close();
  }
  const emails = (await loadRequests(dataDir)).requests.map((request) => request.email);
  expect(emails.sort()).toEqual(["before@example.org", "second@example.org"]);
});

test("a backend started while `npm run requests` reads the files waits its turn, and the other way round", async () => {
  const dataDir = tempDataDir("lock-turn-");
  const reader = await acquireDataLock(dataDir, "reader");
  setTimeout(() => void reader.release(), 500);
  const first = await startLocalBackend({ port: 0, dataDir });
  await post(first.url, "kept@example.org");
  await first.close();

  const starting = await acquireDataLock(dataDir, "server"); // taken, no URL yet
  setTimeout(() => void starting.release(), 500);
  const loaded = await loadRequests(dataDir);
  expect(loaded.requests.map((request) => request.email)).toEqual(["kept@example.org"]);
});
