/**
 * The data folder's lock: PGlite's files are open in one process only, which holds `server.lock`
 * (proper-lockfile). Beside it `server.json` (mode 0600) names the holder: its pid and a backend's
 * URL and service-role key, how the commands reach it. A holder not named there stops writing.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

import lockfile from "proper-lockfile";

import { LocalBackendError } from "./errors";

export interface Holder {
  pid: number;
  kind: "server" | "reader";
  /** Random per lock: tells this holder from any other, whatever the pid. */
  token: string;
  /** A running backend's URL and service-role key, once it listens. */
  url?: string;
  serviceKey?: string;
}

const STALE_MS = 10_000;
const STALE_WHEN_HOLDER_GONE_MS = 2_000;
/** How long a backend waits for a command reading the folder (and a command for a starting backend). */
export const WAIT_FOR_TURN_MS = 30_000;

const holderFile = (dataDir: string): string => path.join(dataDir, "server.json");

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readHolder(dataDir: string): Holder | undefined {
  try {
    return JSON.parse(fs.readFileSync(holderFile(dataDir), "utf8")) as Holder;
  } catch {
    return undefined;
  }
}

/** Who holds the folder, if that process still runs. */
export function liveHolder(dataDir: string): Holder | undefined {
  const holder = readHolder(dataDir);
  return holder && isAlive(holder.pid) ? holder : undefined;
}

function writeHolder(dataDir: string, holder: Holder): void {
  const temporary = `${holderFile(dataDir)}.${holder.token}`;
  fs.writeFileSync(temporary, JSON.stringify(holder), { mode: 0o600 });
  fs.renameSync(temporary, holderFile(dataDir));
}

function inUse(dataDir: string, holder: Holder | undefined): LocalBackendError {
  const message =
    holder?.kind === "server"
      ? `The data folder ${dataDir} is in use by a running local backend (pid ${holder.pid}` +
        `${holder.url ? `, ${holder.url}` : ""}). Stop it first, or use another folder.`
      : `The data folder ${dataDir} is in use by another command${holder ? ` (pid ${holder.pid})` : ""}. Try again when it has finished.`;
  return new LocalBackendError(message, "data-dir-in-use");
}

function unusable(dataDir: string, error: unknown): LocalBackendError {
  const code = (error as NodeJS.ErrnoException).code ?? "error";
  return new LocalBackendError(
    `Cannot use the data folder ${dataDir} (${code}): it must be a folder this user can read and write. ` +
      `Fix its permissions or choose another with --data-dir / LOCAL_BACKEND_DATA_DIR.`,
  );
}

/** Creates the folder if needed and takes its lock, waiting up to 30 s (a backend's: refused). */
export async function acquireDataLock(
  dataDir: string,
  kind: Holder["kind"],
  onLost: () => void = () => {},
) {
  try {
    fs.mkdirSync(dataDir, { recursive: true });
    fs.accessSync(dataDir, fs.constants.R_OK | fs.constants.W_OK | fs.constants.X_OK);
  } catch (error) {
    throw unusable(dataDir, error);
  }
  const holder: Holder = { pid: process.pid, kind, token: crypto.randomBytes(16).toString("hex") };
  const lockfilePath = path.join(dataDir, "server.lock");
  const deadline = Date.now() + WAIT_FOR_TURN_MS;
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  for (;;) {
    const current = liveHolder(dataDir);
    const takingOver = fs.existsSync(lockfilePath);
    let lost = false;
    let acquired = false;
    let release: () => Promise<void>;
    try {
      release = await lockfile.lock(dataDir, {
        lockfilePath,
        realpath: false,
        stale: current ? STALE_MS : STALE_WHEN_HOLDER_GONE_MS,
        update: 1_000,
        onCompromised: () => {
          lost = true;
          if (acquired) onLost();
        },
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ELOCKED") throw unusable(dataDir, error);
      if (current?.kind === "server" || Date.now() > deadline) throw inUse(dataDir, current);
      await pause(100);
      continue;
    }
    writeHolder(dataDir, holder);
    /** False once another process holds the folder. */
    const isHeld = (): boolean => !lost && readHolder(dataDir)?.token === holder.token;
    if (takingOver) {
      // proper-lockfile takes a stale lock over with rmdir and mkdir, so another process that
      // judged the same lock stale can remove this new one (its issue #121). Its next touch of
      // the lock, within a second, tells the loser: wait for it before using the folder.
      await pause(1_500);
      if (!isHeld()) {
        if (!lost) await release().catch(() => {});
        continue;
      }
    }
    acquired = true;
    return {
      /** Writes the backend's URL and key into server.json. */
      announce(url: string, serviceKey: string) {
        if (isHeld()) writeHolder(dataDir, { ...holder, url, serviceKey });
      },
      isHeld,
      async release() {
        if (readHolder(dataDir)?.token === holder.token) fs.rmSync(holderFile(dataDir));
        if (!lost) await release().catch(() => {});
        lost = true;
      },
    };
  }
}
