/**
 * The stored meeting requests for `npm run requests`: read through the running backend's
 * `/local-admin/contacts`, or from the data folder (data-folder.ts), printed as text or CSV.
 * All of it came from anonymous visitors: control characters are shown as escapes, and the CSV
 * keeps a spreadsheet from running a field as a formula.
 */
import { readDataFolder } from "./data-folder";
import { readRequests, type RequestStatus, type StoredRequest } from "./database";
import { LocalBackendError, oneLine } from "./errors";

async function fromBackend(url: string, serviceKey: string): Promise<StoredRequest[]> {
  const response = await fetch(`${url}/local-admin/contacts`, {
    headers: { apikey: serviceKey },
    signal: AbortSignal.timeout(10_000),
  }).catch((error: unknown) => {
    throw new LocalBackendError(
      `The local backend holds the data folder but did not answer at ${url}: ${oneLine(error)}`,
    );
  });
  if (!response.ok) {
    throw new LocalBackendError(
      `The local backend at ${url} refused to list the requests (HTTP ${response.status}).`,
    );
  }
  return (await response.json()) as StoredRequest[];
}

/** Every stored request, newest first, and where they came from ("empty": no database yet). */
export async function loadRequests(
  dataDir: string,
): Promise<{ requests: StoredRequest[]; source: "server" | "files" | "empty" }> {
  let source: "server" | "files" = "files";
  const requests = await readDataFolder(dataDir, {
    viaBackend: (url, key) => ((source = "server"), fromBackend(url, key)),
    fromFiles: (db) => readRequests(db),
  });
  return requests ? { requests, source } : { requests: [], source: "empty" };
}

/** Control characters and bidirectional overrides as visible \u escapes; tabs as spaces. */
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

/** "2026-11-23 17:05:02 UTC" from an ISO time (`seconds` false: to the minute). */
function utcTime(iso: string | null, seconds = true): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(:\d{2})/.exec(iso ?? "");
  return match ? `${match[1]} ${match[2]}${seconds ? match[3] : ""} UTC` : String(iso);
}

/** e.g. "yes, 2026-11-23 17:05:02 UTC" or "NOT YET (3 attempts; last error: …; next attempt …)". */
export function describeNotification(status: RequestStatus, visible: (text: string) => string) {
  const { notification, held_for, digest, notification_attempts: attempts } = status;
  const error = status.notification_error && visible(status.notification_error);
  const why = held_for?.length ? ` (${held_for.join("; ")})` : "";
  if (notification === null) return "unknown (no delivery record)";
  if (notification === "delivered")
    return `yes, ${utcTime(status.notified_at)}${error ? ` (${error})` : ""}`;
  if (notification === "skipped") return "no (stored before staff notifications were set up)";
  if (notification === "held")
    return `not yet: waiting for the page's proof until ${utcTime(status.next_attempt_at)}, then the digest`;
  if (notification === "digest")
    return `not one by one${why}: in the next digest${digest ? `, #${digest}` : ""}`;
  if (notification === "digested")
    return `in digest${digest ? ` #${digest}` : ""}${why}, ${utcTime(status.digest_sent_at)}`;
  const tried = !attempts ? "not tried yet" : `${attempts} attempt${attempts === 1 ? "" : "s"}`;
  return `NOT YET (${tried}${error ? `; last error: ${error}` : ""}; next attempt ${utcTime(status.next_attempt_at)})`;
}

const PROOF_WORDS: Record<string, string> = {
  missing: "no page proof",
  invalid: "invalid page proof",
  pending: "page proof not confirmed yet",
};

/** e.g. "page-verified" or "SUSPECT (no page proof; links)". */
function describeScreening({ screening, page_proof, screening_signals }: RequestStatus) {
  if (screening === "page-verified")
    return page_proof === "confirmed" ? "page-verified (confirmed after sending)" : "page-verified";
  if (screening === "awaiting-proof")
    return "waiting for the page's proof (sent before it was ready)";
  const reasons = [PROOF_WORDS[page_proof ?? ""], ...(screening_signals ?? [])];
  return `SUSPECT (${reasons.filter(Boolean).join("; ")})`;
}

/** Readable blocks, in the order given (`order` says which). */
export function formatRequestsText(
  requests: readonly StoredRequest[],
  order = "newest first",
): string {
  if (requests.length === 0) return "No meeting requests yet.\n";
  const one = (text: string): string => terminalSafe(text).replace(/\n/g, " ");
  const blocks = requests.map(({ id, created_at, name, organization, email, message, status }) => {
    const suspect = status?.screening && status.screening !== "page-verified";
    return [
      `#${id}  ${utcTime(created_at, false)}${suspect ? "  [SUSPECT]" : ""}`,
      `  Name:          ${one(name)}`,
      `  Organization:  ${one(organization)}`,
      `  Email:         ${one(email)}`,
      ...(status?.screening ? [`  Screening:     ${describeScreening(status)}`] : []),
      ...(status ? [`  Notified:      ${describeNotification(status, one)}`] : []),
      `  Message:`,
      ...terminalSafe(message)
        .split("\n")
        .map((line) => `    ${line}`.trimEnd()),
    ].join("\n");
  });
  const held = requests.filter((request) =>
    ["held", "digest", "digested"].includes(request.status?.notification ?? ""),
  ).length;
  const count = `${requests.length} meeting request${requests.length === 1 ? "" : "s"}, ${order}`;
  const note = held
    ? ` (${held} not e-mailed one by one: held for the page's proof or listed in a digest)`
    : "";
  return `${blocks.join("\n\n")}\n\n${count}${note}.\n`;
}

/** One CSV field (RFC 4180), with an apostrophe before what a spreadsheet would run as a formula. */
export function csvField(value: string | number): string {
  let text = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const CSV_COLUMNS = ["id", "created_at", "name", "email", "organization", "message"] as const;

export function requestsToCsv(requests: readonly StoredRequest[]): string {
  const rows = requests.map((request) => CSV_COLUMNS.map((column) => csvField(request[column])));
  return [CSV_COLUMNS, ...rows].map((row) => `${row.join(",")}\r\n`).join("");
}

/** The requests digest #N lists, in its order (the likeliest real first), for `--digest N`. */
export function requestsInDigest(requests: readonly StoredRequest[], digest: number) {
  return requests
    .filter((request) => request.status?.digest === digest)
    .sort((a, b) => (a.status?.digest_rank ?? 0) - (b.status?.digest_rank ?? 0));
}
