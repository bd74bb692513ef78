/**
 * A lock file in the data folder. PGlite is a single-process database: two processes that
 * open one data folder at once would corrupt it. Whoever opens the folder (the server, or
 * `npm run requests` while no server runs) writes `server.lock` with its pid; a running
 * server also writes its URL and a per-run admin token there, which is how
 * `npm run requests` finds it and reads through it instead of opening the files.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

import { LocalBackendError } from "./errors";

export interface LockInfo {
  pid: number;
  /** "server" for the HTTP backend, "reader" for a one-off command. */
  holder: "server" | "reader";
  startedAt: string;
  /** Set by a server once it listens. */
  url?: string;
  /** Bearer token for the loopback-only admin endpoint of that server. */
  adminToken?: string;
}

export interface DataLock {
  readonly file: string;
  readonly info: LockInfo;
  /** Rewrites the lock with more details (e.g. the URL once listening). */
  update(extra: Partial<LockInfo>): void;
  release(): void;
}

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

/** The lock's contents if a live process holds it, else undefined (stale or absent). */
export function readLiveLock(dataDir: string): LockInfo | undefined {
  let text: string;
  try {
    text = fs.readFileSync(lockFile(dataDir), "utf8");
  } catch {
    return undefined;
  }
  try {
    const info = JSON.parse(text) as LockInfo;
    if (typeof info.pid === "number" && isAlive(info.pid)) return info;
  } catch {
    // A half-written or foreign file: treat as stale.
  }
  return undefined;
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

/** Creates the folder if needed and takes the lock, or throws one readable LocalBackendError. */
export function acquireDataLock(dataDir: string, holder: LockInfo["holder"]): DataLock {
  try {
    fs.mkdirSync(dataDir, { recursive: true });
    fs.accessSync(dataDir, fs.constants.R_OK | fs.constants.W_OK | fs.constants.X_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "error";
    throw new LocalBackendError(
      "data-dir",
      `Cannot use the data folder ${dataDir} (${code}): it must be a folder this user can read and write. ` +
        `Fix its permissions or choose another with --data-dir / LOCAL_BACKEND_DATA_DIR.`,
    );
  }
  const file = lockFile(dataDir);
  let info: LockInfo = { pid: process.pid, holder, startedAt: new Date().toISOString() };
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      fs.writeFileSync(file, JSON.stringify(info), { flag: "wx", mode: 0o600 });
      let released = false;
      return {
        file,
        get info() {
          return info;
        },
        update(extra) {
          info = { ...info, ...extra };
          fs.writeFileSync(file, JSON.stringify(info), { mode: 0o600 });
        },
        release() {
          if (released) return;
          released = true;
          try {
            fs.unlinkSync(file);
          } catch {
            // Already gone.
          }
        },
      };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "EEXIST") {
        throw new LocalBackendError(
          "data-dir",
          `Cannot write to the data folder ${dataDir} (${code ?? "error"}). Fix its permissions or choose another with --data-dir / LOCAL_BACKEND_DATA_DIR.`,
        );
      }
      const live = readLiveLock(dataDir);
      if (live) throw new LocalBackendError("data-dir-in-use", describeHolder(dataDir, live));
      // Stale lock from a process that is gone: remove it and try again.
      try {
        fs.unlinkSync(file);
      } catch {
        // Someone else removed it first.
      }
    }
  }
  throw new LocalBackendError("data-dir-in-use", `Could not lock the data folder ${dataDir}; try again.`);
}
