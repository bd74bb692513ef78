/**
 * Reading the stored meeting requests for `npm run requests`, and printing them.
 *
 * PGlite's files can be opened by one process only. If a local backend is running on the
 * data folder, its lock file names its URL and a per-run admin token, and the requests
 * are fetched from its loopback-only `GET /local-admin/contacts`. Otherwise the folder is
 * opened directly (under the same lock, so a backend started meanwhile waits its turn).
 */
import fs from "node:fs";

import { acquireDataLock, readLiveLock } from "./data-lock";
import { openDatabase, readRequests, type StoredRequest } from "./database";
import { LocalBackendError, oneLine } from "./errors";
import { describeNotification } from "./notifications/request-status";
import { pgDataDir } from "./paths";

export type { StoredRequest } from "./database";

export interface LoadedRequests {
  requests: StoredRequest[];
  /** Where they came from: a running server, the files, or nothing there yet. */
  source: "server" | "files" | "empty";
}

export async function loadRequests(dataDir: string, migrationsDir?: string): Promise<LoadedRequests> {
  if (!fs.existsSync(pgDataDir(dataDir))) return { requests: [], source: "empty" };
  const live = readLiveLock(dataDir);
  if (live?.holder === "server") {
    if (!live.url || !live.adminToken) {
      throw new LocalBackendError(
        "data-dir-in-use",
        `The local backend (pid ${live.pid}) is still starting; try again in a moment.`,
      );
    }
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
    return { requests: (await response.json()) as StoredRequest[], source: "server" };
  }
  const lock = acquireDataLock(dataDir, "reader");
  try {
    const { db } = await openDatabase({ dataDir, migrationsDir });
    try {
      return { requests: await readRequests(db), source: "files" };
    } finally {
      await db.close();
    }
  } finally {
    lock.release();
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
    // eslint-disable-next-line no-control-regex -- control characters are exactly what this makes visible
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (char) =>
      `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
    );
}

function displayDate(iso: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(iso);
  return match ? `${match[1]} ${match[2]} UTC` : iso;
}

/** Human-readable blocks, newest first (the order given). */
export function formatRequestsText(requests: readonly StoredRequest[]): string {
  if (requests.length === 0) return "No meeting requests yet.\n";
  const blocks = requests.map((request) => {
    const one = (text: string): string => terminalSafe(text).replace(/\n/g, " ");
    const message = terminalSafe(request.message)
      .split("\n")
      .map((line) => `    ${line}`.trimEnd())
      .join("\n");
    return [
      `#${request.id}  ${displayDate(request.created_at)}`,
      `  Name:          ${one(request.name)}`,
      `  Organization:  ${one(request.organization)}`,
      `  Email:         ${one(request.email)}`,
      ...(request.notification === undefined ? [] : [`  Notified:      ${describeNotification(request.notification, one)}`]),
      `  Message:`,
      message,
    ].join("\n");
  });
  const count = `${requests.length} meeting request${requests.length === 1 ? "" : "s"}, newest first.`;
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
  for (const request of requests) lines.push(CSV_COLUMNS.map((column) => csvField(request[column])).join(","));
  return `${lines.join("\r\n")}\r\n`;
}
