/**
 * The data folder's lock file, `server.lock`. PGlite is a single-process database: two
 * processes that open one data folder at once corrupt it. Whoever opens the folder (the
 * server, or `npm run requests` while no server runs) holds the lock; a running server also
 * writes its URL and a per-run admin token there, which is how `npm run requests` finds it.
 *
 * Why two processes can never both hold it:
 * - The file appears whole or not at all: it is written under a temporary name and then
 *   hard-linked to `server.lock`, which fails if the name exists (no half-written lock to misread).
 * - A stale lock is taken over by renaming it to a name of the taker's own and checking that
 *   what was moved is the stale lock that was judged (same token); if another taker's fresh
 *   lock was moved instead, it is put back. Only the hard link creates a lock.
 * - Stale means: the pid is not running, or it is running but started after the lock was
 *   written (the pid was reused by an unrelated process).
 * - The holder checks it still holds the lock (`isHeld`) before and after each write and
 *   periodically, and stops writing if another process has it (see server.ts).
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

import { LocalBackendError } from "./errors";
import { processStartTime } from "./process-start";

export interface LockInfo {
  pid: number;
  /** "server" for the HTTP backend, "reader" for a one-off command. */
  holder: "server" | "reader";
  startedAt: string;
  /** Random per lock: tells this lock from any other, whatever the pid. */
  token?: string;
  /** When the holding process started (epoch ms), if known. */
  processStart?: number;
  /** Set by a server once it listens. */
  url?: string;
  /** Bearer token for the loopback-only admin endpoint of that server. */
  adminToken?: string;
}

export interface DataLock {
  readonly file: string;
  readonly info: LockInfo;
  /** Rewrites the lock with more details (e.g. the URL once listening), atomically. */
  update(extra: Partial<LockInfo>): void;
  /** True while the lock file is this lock (recreated if someone deleted it and nobody took it). */
  isHeld(): boolean;
  /** Removes the lock file if it is still this lock. */
  release(): void;
}

/** Allowed difference between a process's start and its lock's time (ps reports whole seconds). */
const CLOCK_SLACK_MS = 2_000;

function lockFile(dataDir: string): string {
  return path.join(dataDir, "server.lock");
}

export function newAdminToken(): string {
  return crypto.randomBytes(24).toString("base64url");
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export interface ReadLock {
  info: LockInfo | undefined;
  /** When the file was last written (epoch ms). */
  writtenAt: number;
}

function readLock(file: string): ReadLock | undefined {
  try {
    const text = fs.readFileSync(file, "utf8");
    const writtenAt = fs.statSync(file).mtimeMs;
    try {
      const info = JSON.parse(text) as LockInfo;
      return { info: typeof info.pid === "number" ? info : undefined, writtenAt };
    } catch {
      return { info: undefined, writtenAt };
    }
  } catch {
    return undefined;
  }
}

/** Whether the process named in a lock still holds it. */
function isLive(lock: ReadLock): boolean {
  const info = lock.info;
  if (!info || !isAlive(info.pid)) return false;
  const started = processStartTime(info.pid);
  if (started === undefined) return true;
  if (info.processStart !== undefined)
    return Math.abs(started - info.processStart) < CLOCK_SLACK_MS;
  // A lock from before processStart was recorded: its process must have started before writing it.
  return started <= lock.writtenAt + CLOCK_SLACK_MS;
}

/** The lock's contents if a live process holds it, else undefined (stale or absent). */
export function readLiveLock(dataDir: string): LockInfo | undefined {
  const lock = readLock(lockFile(dataDir));
  return lock && isLive(lock) ? lock.info : undefined;
}

function describeHolder(dataDir: string, info: LockInfo): string {
  if (info.holder === "server") {
    return (
      `The data folder ${dataDir} is in use by a running local backend (pid ${info.pid}` +
      `${info.url ? `, ${info.url}` : ""}). Stop it first, or use another folder.`
    );
  }
  return `The data folder ${dataDir} is in use by another command (pid ${info.pid}). Try again when it has finished.`;
}

function writeTemporary(file: string, info: LockInfo): string {
  const temporary = `${file}.${process.pid}.${crypto.randomBytes(6).toString("hex")}.tmp`;
  fs.writeFileSync(temporary, JSON.stringify(info), { mode: 0o600 });
  return temporary;
}

/** Creates `file` with `info` if no file has that name; false if one does. */
function linkNew(file: string, info: LockInfo): boolean {
  const temporary = writeTemporary(file, info);
  try {
    fs.linkSync(temporary, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    fs.rmSync(temporary, { force: true });
  }
}

/** Removes a stale lock only if it is still the one judged stale (compare-and-delete by rename). */
function removeStale(file: string, stale: ReadLock): void {
  const moved = `${file}.${process.pid}.${crypto.randomBytes(6).toString("hex")}.stale`;
  try {
    fs.renameSync(file, moved);
  } catch {
    return; // Someone else moved it first.
  }
  const what = readLock(moved);
  const sameLock =
    what !== undefined &&
    what.writtenAt === stale.writtenAt &&
    JSON.stringify(what.info) === JSON.stringify(stale.info);
  if (!sameLock) {
    // Another process's fresh lock was moved: put it back (unless a third one got in meanwhile,
    // which that holder notices through isHeld()).
    try {
      fs.linkSync(moved, file);
    } catch {
      // EEXIST: see above.
    }
  }
  fs.rmSync(moved, { force: true });
}

function dataDirError(dataDir: string, error: unknown, what: string): LocalBackendError {
  const code = (error as NodeJS.ErrnoException).code ?? "error";
  return new LocalBackendError(
    "data-dir",
    `${what} ${dataDir} (${code})${what.startsWith("Cannot use") ? ": it must be a folder this user can read and write" : ""}. ` +
      `Fix its permissions or choose another with --data-dir / LOCAL_BACKEND_DATA_DIR.`,
  );
}

function heldLock(file: string, initial: LockInfo): DataLock {
  let info = initial;
  let released = false;
  const mine = (): boolean => readLock(file)?.info?.token === info.token;
  return {
    file,
    get info() {
      return info;
    },
    update(extra) {
      if (!mine()) return;
      info = { ...info, ...extra };
      fs.renameSync(writeTemporary(file, info), file);
    },
    isHeld() {
      if (released) return false;
      if (mine()) return true;
      // Deleted by hand? Take it back if nobody else has.
      return !fs.existsSync(file) && linkNew(file, info);
    },
    release() {
      if (released) return;
      released = true;
      if (mine()) fs.rmSync(file, { force: true });
    },
  };
}

/** The lock file as read now (for the takeover test). */
export function readLockFile(dataDir: string): ReadLock | undefined {
  return readLock(lockFile(dataDir));
}

/** Removes the lock only if it is still `judged`, read earlier and found stale (the takeover step). */
export function removeStaleLock(dataDir: string, judged: ReadLock): void {
  removeStale(lockFile(dataDir), judged);
}

export interface AcquireOptions {
  /** A server waits this long for a one-off reader (`npm run requests`) to finish; default 30 s. */
  waitForReaderMs?: number;
}

/** Creates the folder if needed and takes the lock, or throws one readable LocalBackendError. */
export async function acquireDataLock(
  dataDir: string,
  holder: LockInfo["holder"],
  options: AcquireOptions = {},
): Promise<DataLock> {
  try {
    fs.mkdirSync(dataDir, { recursive: true });
    fs.accessSync(dataDir, fs.constants.R_OK | fs.constants.W_OK | fs.constants.X_OK);
  } catch (error) {
    throw dataDirError(dataDir, error, "Cannot use the data folder");
  }
  const file = lockFile(dataDir);
  const info: LockInfo = {
    pid: process.pid,
    holder,
    startedAt: new Date().toISOString(),
    token: crypto.randomBytes(16).toString("hex"),
    processStart: processStartTime(process.pid),
  };
  const waitUntil = Date.now() + (holder === "server" ? (options.waitForReaderMs ?? 30_000) : 0);
  for (let attempt = 0; ; attempt += 1) {
    try {
      if (linkNew(file, info)) return heldLock(file, info);
    } catch (error) {
      throw dataDirError(dataDir, error, "Cannot write to the data folder");
    }
    const current = readLock(file);
    if (current === undefined) continue; // Removed meanwhile: try again.
    if (!isLive(current)) {
      removeStale(file, current);
    } else if (current.info?.holder === "reader" && Date.now() < waitUntil) {
      await new Promise((resolve) => setTimeout(resolve, 100)); // `npm run requests` is short: wait our turn.
    } else {
      throw new LocalBackendError("data-dir-in-use", describeHolder(dataDir, current.info!));
    }
    if (attempt > 1000)
      throw new LocalBackendError(
        "data-dir-in-use",
        `Could not lock the data folder ${dataDir}; try again.`,
      );
  }
}
