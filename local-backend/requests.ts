/**
 * Reading the stored meeting requests for `npm run requests`, and printing them.
 *
 * PGlite's files can be opened by one process only, so:
 * - If a local backend holds the data folder, its lock file names its URL and a per-run admin
 *   token, and the requests are fetched from its loopback-only `GET /local-admin/contacts`.
 *   A backend that is still starting (lock taken, URL not yet written) is waited for.
 * - Otherwise the folder is opened directly, under the lock as a "reader". This is not
 *   read-only: if the last backend did not stop cleanly, PostgreSQL's crash recovery runs and
 *   writes the recovered state, and rows missing from the journal are added to it, exactly as
 *   the backend's next start would. A backend started meanwhile waits its turn (data-lock.ts)
 *   and this command, finding a backend's lock, reads through the backend instead.
 * - A damaged folder is refused with the same sentence the backend gives (data-folder.ts).
 */
import fs from "node:fs";

import { acquireDataLock, readLiveLock, type LockInfo } from "./data-lock";
import { openDataFolder } from "./data-folder";
import { readRequests, type StoredRequest } from "./database";
import { LocalBackendError, oneLine } from "./errors";
import { readJournal } from "./journal";
import { describeNotification, describeScreening } from "./notifications/request-status";
import { pgDataDir } from "./paths";

export type { StoredRequest } from "./database";

export interface LoadedRequests {
  requests: StoredRequest[];
  /** Where they came from: a running server, the files, or nothing there yet. */
  source: "server" | "files" | "empty";
}

/** How long to wait for a backend that is starting, or for another reader, to be done. */
const WAIT_FOR_TURN_MS = 30_000;

async function fromServer(
  dataDir: string,
  live: LockInfo & { url: string; adminToken: string },
): Promise<StoredRequest[]> {
  let response: Response;
  try {
    response = await fetch(`${live.url}/local-admin/contacts`, {
      headers: { Authorization: `Bearer ${live.adminToken}` },
      signal: AbortSignal.timeout(10_000),
    });
  } catch (error) {
    throw new LocalBackendError(
      "data-dir-in-use",
      `The local backend (pid ${live.pid}) holds ${dataDir} but did not answer at ${live.url}: ${oneLine(error)}`,
    );
  }
  if (!response.ok) {
    throw new LocalBackendError(
      "data-dir-in-use",
      `The local backend at ${live.url} refused to list the requests (HTTP ${response.status}).`,
    );
  }
  return (await response.json()) as StoredRequest[];
}

async function fromFiles(
  dataDir: string,
  migrationsDir: string | undefined,
): Promise<StoredRequest[] | undefined> {
  let lock;
  try {
    lock = await acquireDataLock(dataDir, "reader");
  } catch (error) {
    if (error instanceof LocalBackendError && error.kind === "data-dir-in-use") return undefined; // Someone else's turn.
    throw error;
  }
  try {
    const { db, journal } = await openDataFolder(dataDir, migrationsDir);
    try {
      return await readRequests(db);
    } finally {
      journal.close();
      await db.close();
    }
  } finally {
    lock.release();
  }
}

export async function loadRequests(
  dataDir: string,
  migrationsDir?: string,
): Promise<LoadedRequests> {
  if (
    !fs.existsSync(pgDataDir(dataDir)) &&
    (!fs.existsSync(dataDir) || readJournal(dataDir).size === 0)
  ) {
    return { requests: [], source: "empty" };
  }
  const deadline = Date.now() + WAIT_FOR_TURN_MS;
  for (;;) {
    const live = readLiveLock(dataDir);
    if (live?.holder === "server" && live.url && live.adminToken) {
      return {
        requests: await fromServer(dataDir, {
          ...live,
          url: live.url,
          adminToken: live.adminToken,
        }),
        source: "server",
      };
    }
    if (!live) {
      const requests = await fromFiles(dataDir, migrationsDir);
      if (requests) return { requests, source: "files" };
    }
    if (Date.now() > deadline) {
      throw new LocalBackendError(
        "data-dir-in-use",
        live?.holder === "server"
          ? `The local backend (pid ${live.pid}) has been starting for ${WAIT_FOR_TURN_MS / 1000} s; try again when it is ready.`
          : `The data folder ${dataDir} is in use by another command; try again when it has finished.`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Makes submitted text safe to print in a terminal: control characters (escape sequences
 * could recolour or rewrite the screen) and bidirectional overrides become visible \u escapes.
 * Newlines are kept (the caller indents them); tabs become spaces.
 */
export function terminalSafe(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .replace(/\t/g, "    ")
    .replace(
      // eslint-disable-next-line no-control-regex -- control characters are exactly what this makes visible
      /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g,
      (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
    );
}

function displayDate(iso: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(iso);
  return match ? `${match[1]} ${match[2]} UTC` : iso;
}

/** Human-readable blocks, in the order given (`order` says which). */
export function formatRequestsText(
  requests: readonly StoredRequest[],
  order = "newest first",
): string {
  if (requests.length === 0) return "No meeting requests yet.\n";
  const blocks = requests.map((request) => {
    const one = (text: string): string => terminalSafe(text).replace(/\n/g, " ");
    const message = terminalSafe(request.message)
      .split("\n")
      .map((line) => `    ${line}`.trimEnd())
      .join("\n");
    const suspect = request.screening && request.screening.verdict !== "page-verified";
    return [
      `#${request.id}  ${displayDate(request.created_at)}${suspect ? "  [SUSPECT]" : ""}`,
      `  Name:          ${one(request.name)}`,
      `  Organization:  ${one(request.organization)}`,
      `  Email:         ${one(request.email)}`,
      ...(request.screening ? [`  Screening:     ${describeScreening(request.screening)}`] : []),
      ...(request.notification === undefined
        ? []
        : [`  Notified:      ${describeNotification(request.notification, one)}`]),
      `  Message:`,
      message,
    ].join("\n");
  });
  const held = requests.filter((request) =>
    ["held", "digest", "digested"].includes(request.notification?.status ?? ""),
  ).length;
  const count = `${requests.length} meeting request${requests.length === 1 ? "" : "s"}, ${order}${held ? ` (${held} not e-mailed one by one: held for the page's proof or listed in a digest)` : ""}.`;
  return `${blocks.join("\n\n")}\n\n${count}\n`;
}

export function requestsToJson(requests: readonly StoredRequest[]): string {
  return `${JSON.stringify(requests, null, 2)}\n`;
}

const CSV_COLUMNS = ["id", "created_at", "name", "email", "organization", "message"] as const;

/**
 * One CSV field (RFC 4180: quoted when it holds a quote, comma, CR or LF; quotes doubled).
 * Text that a spreadsheet would run as a formula (starting with = + - @ or a tab/CR) gets a
 * leading apostrophe: these rows come from anonymous visitors. `--json` keeps exact text.
 */
export function csvField(value: string | number): string {
  let text = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function requestsToCsv(requests: readonly StoredRequest[]): string {
  const lines = [CSV_COLUMNS.join(",")];
  for (const request of requests)
    lines.push(CSV_COLUMNS.map((column) => csvField(request[column])).join(","));
  return `${lines.join("\r\n")}\r\n`;
}

/** The requests a digest lists, in its order (the likeliest real first), for `--digest N`. */
export function requestsInDigest(
  requests: readonly StoredRequest[],
  digest: number,
): StoredRequest[] {
  return requests
    .filter((request) => request.notification?.digest === digest)
    .sort((a, b) => (a.notification?.digest_rank ?? 0) - (b.notification?.digest_rank ?? 0));
}
