/**
 * The data folder's lock: a stale lock whose pid was reused is taken over; a lock deleted by
 * hand never lets two backends write; many processes racing for a stale lock get one winner;
 * `npm run requests` and a starting backend wait for each other instead of failing.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

import { LOCAL_ANON_KEY } from "../build-time/local-backend-defaults";
import { acquireDataLock, readLockFile, removeStaleLock } from "./data-lock";
import { loadRequests } from "./requests";
import { startLocalBackend } from "./server";
import { goodRow } from "./test-helpers";
import { PROJECT_ROOT, tempDataDir } from "./test-processes";

jest.setTimeout(60_000);

const lockPath = (dataDir: string): string => path.join(dataDir, "server.lock");

async function post(url: string, email: string): Promise<number> {
  const response = await fetch(`${url}/rest/v1/contacts`, {
    method: "POST",
    headers: { apikey: LOCAL_ANON_KEY, "Content-Type": "application/json" },
    body: JSON.stringify(goodRow({ email })),
  });
  await response.arrayBuffer();
  return response.status;
}

test("a lock whose pid now belongs to an unrelated, younger process is stale and taken over", async () => {
  const dataDir = tempDataDir("lock-reused-");
  const unrelated = spawn("sleep", ["30"]);
  try {
    fs.writeFileSync(
      lockPath(dataDir),
      JSON.stringify({ pid: unrelated.pid, holder: "server", startedAt: "2025-01-01T00:00:00Z" }),
    );
    const anHourAgo = new Date(Date.now() - 3_600_000);
    fs.utimesSync(lockPath(dataDir), anHourAgo, anHourAgo);
    const lock = await acquireDataLock(dataDir, "server");
    expect(JSON.parse(fs.readFileSync(lockPath(dataDir), "utf8"))).toMatchObject({
      pid: process.pid,
    });
    lock.release();
  } finally {
    unrelated.kill();
  }
});

test("a live holder is still respected", async () => {
  const dataDir = tempDataDir("lock-live-");
  const held = await acquireDataLock(dataDir, "server");
  await expect(acquireDataLock(dataDir, "server")).rejects.toThrow(
    /is in use by a running local backend \(pid \d+\)/,
  );
  held.release();
  expect(fs.existsSync(lockPath(dataDir))).toBe(false);
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
  fs.rmSync(lockPath(dataDir));
  const second = await startLocalBackend({ port: 0, dataDir });
  try {
    await new Promise((resolve) => setTimeout(resolve, 600));
    const firstStatus = await post(first.url, "first@example.org").catch(() => 0);
    expect(firstStatus).not.toBe(201);
    expect(await post(second.url, "second@example.org")).toBe(201);
    expect(lost).toEqual([
      expect.stringMatching(/^The data folder .* was taken over by another process/),
    ]);
  } finally {
    await second.close();
    await first.close();
  }
  const emails = (await loadRequests(dataDir)).requests.map((request) => request.email).sort();
  expect(emails).toEqual(["before@example.org", "second@example.org"]);
});

test("taking over a stale lock never removes a fresh lock that replaced it meanwhile", async () => {
  const dataDir = tempDataDir("lock-window-");
  fs.writeFileSync(
    lockPath(dataDir),
    JSON.stringify({ pid: 999_999_999, holder: "server", startedAt: "2025-01-01T00:00:00Z" }),
  );
  const judgedStale = readLockFile(dataDir)!; // a taker reads the stale lock…
  const other = await acquireDataLock(dataDir, "server"); // …another taker replaces it first…
  removeStaleLock(dataDir, judgedStale); // …then the first one takes the stale lock away.
  expect(other.isHeld()).toBe(true);
  expect(JSON.parse(fs.readFileSync(lockPath(dataDir), "utf8"))).toMatchObject({
    pid: process.pid,
    token: other.info.token,
  });
  await expect(acquireDataLock(dataDir, "server")).rejects.toThrow(
    /is in use by a running local backend/,
  );
  other.release();
});

test("eight processes racing for a stale lock: exactly one gets it", async () => {
  const dataDir = tempDataDir("lock-race-");
  fs.writeFileSync(
    lockPath(dataDir),
    JSON.stringify({ pid: 999_999_999, holder: "server", startedAt: "2025-01-01T00:00:00Z" }),
  );
  const script = `
    const { acquireDataLock } = require(${JSON.stringify(path.join(__dirname, "data-lock.ts"))});
    const start = Number(process.argv[1]);
    setTimeout(async () => {
      try { const lock = await acquireDataLock(process.argv[2], "reader"); console.log("won"); setTimeout(() => lock.release(), 1500); }
      catch { console.log("lost"); }
    }, start - Date.now());`;
  const at = Date.now() + 2_500;
  const outcomes = await Promise.all(
    Array.from({ length: 8 }, () => {
      const child = spawn(
        process.execPath,
        ["--import", "tsx", "-e", script, String(at), dataDir],
        { cwd: PROJECT_ROOT },
      );
      let out = "";
      child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
      return new Promise<string>((resolve) => child.on("exit", () => resolve(out.trim())));
    }),
  );
  expect(outcomes.filter((outcome) => outcome === "won")).toHaveLength(1);
  expect(outcomes.filter((outcome) => outcome === "lost")).toHaveLength(7);
});

test("a backend started while `npm run requests` reads the files waits its turn", async () => {
  const dataDir = tempDataDir("lock-turn-");
  const reader = await acquireDataLock(dataDir, "reader");
  setTimeout(() => reader.release(), 500);
  const backend = await startLocalBackend({ port: 0, dataDir });
  await backend.close();
});

test("`npm run requests` while a backend is starting waits for it instead of failing", async () => {
  const dataDir = tempDataDir("lock-starting-");
  const first = await startLocalBackend({ port: 0, dataDir });
  await post(first.url, "kept@example.org");
  await first.close();
  const starting = await acquireDataLock(dataDir, "server"); // taken, no URL yet
  setTimeout(() => starting.release(), 500);
  const loaded = await loadRequests(dataDir);
  expect(loaded.requests.map((request) => request.email)).toEqual(["kept@example.org"]);
});
