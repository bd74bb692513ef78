/**
 * The digest call (`{ "type": "DIGEST" }`, posted by the pg_cron job or the local backend's
 * stand-in when requests are held): one e-mail listing every meeting request that was not
 * e-mailed one by one (20261126120000_digest_lists_every_request.sql): no or a bad page proof,
 * a pending ticket never confirmed, or over a budget of one-by-one e-mails. The database decides
 * what is due, its interval and how many it lists, the likeliest real requests first, and leases
 * it; the outcome is recorded like a notification's.
 */
import type { NotifyConfig } from "./config.ts";
import { StoreError, type Rpc } from "./delivery-store.ts";
import { formatReceived, type ComposeSettings } from "./compose.ts";
import { oneLine, visible } from "./mime.ts";
import { retryDelaySeconds } from "./retry.ts";
import type { SmtpSettings } from "./smtp.ts";
import { staffEmail, type StaffEmail } from "./staff-email.ts";

export interface HeldRequest {
  id: number;
  createdAt: Date;
  name: string;
  organization: string;
  email: string;
  /** The first 400 characters. */
  message: string;
  truncated: boolean;
  /** Why it was not e-mailed one by one (the SQL's words). */
  heldFor: string[];
  /** Content signals: they order the list, they never hold a page-proved request. */
  signals: string[];
  /** Requests from the same network address in the window before this one. */
  sameAddress: number;
  /** Requests in this digest with the same text. */
  copies: number;
}

export interface HeldDigest {
  id: number;
  lease: string;
  attempt: number;
  requestCount: number;
  firstAt: Date;
  lastAt: Date;
  clientCount: number;
  /** The least time between two digests (private.screening_settings). */
  intervalSeconds: number;
  /** Why requests were held → how many (a request can have several reasons). */
  reasons: Record<string, number>;
  /** The first requests, the likeliest real first; `requestCount` may be more. */
  requests: HeldRequest[];
}

export interface DigestStore {
  /** The due digest, leased to this caller; undefined when none is due. */
  claim(leaseSeconds: number): Promise<HeldDigest | undefined>;
  /** Records the outcome; false when the lease was lost. */
  finish(id: number, lease: string, failure?: string, retryInSeconds?: number): Promise<boolean>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function date(value: unknown, what: string): Date {
  const parsed = typeof value === "string" ? new Date(value) : undefined;
  if (!parsed || Number.isNaN(parsed.getTime()))
    throw new StoreError(`the digest claim answered without ${what}`);
  return parsed;
}

const texts = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);

function heldRequest(value: unknown): HeldRequest {
  if (!isRecord(value))
    throw new StoreError("the digest claim answered with a request that is not an object");
  const text = (field: string): string =>
    typeof value[field] === "string" ? (value[field] as string) : "";
  return {
    id: Number(value.id),
    createdAt: date(value.created_at, "a request's time"),
    name: text("name"),
    organization: text("organization"),
    email: text("email"),
    message: text("message"),
    truncated: value.truncated === true,
    heldFor: texts(value.held_for),
    signals: texts(value.signals),
    sameAddress: Number(value.same_address ?? 0),
    copies: Number(value.copies ?? 1),
  };
}

/** A row of public.claim_contact_digest, checked. */
export function parseDigestRow(row: unknown): HeldDigest {
  if (!isRecord(row) || typeof row.lease_token !== "string" || typeof row.digest_id !== "number") {
    throw new StoreError("the digest claim answered with an unexpected row");
  }
  const reasons: Record<string, number> = {};
  if (isRecord(row.reasons))
    for (const [reason, count] of Object.entries(row.reasons)) reasons[reason] = Number(count);
  return {
    id: row.digest_id,
    lease: row.lease_token,
    attempt: Number(row.attempt),
    requestCount: Number(row.request_count),
    firstAt: date(row.first_at, "first_at"),
    lastAt: date(row.last_at, "last_at"),
    clientCount: Number(row.client_count),
    intervalSeconds: Number(row.interval_seconds),
    reasons,
    requests: Array.isArray(row.requests) ? row.requests.map(heldRequest) : [],
  };
}

export function restDigestStore(rpc: Rpc): DigestStore {
  return {
    async claim(leaseSeconds) {
      const rows = await rpc("claim_contact_digest", { lease_seconds: leaseSeconds });
      if (!Array.isArray(rows)) throw new StoreError("the digest claim did not answer with rows");
      return rows.length === 0 ? undefined : parseDigestRow(rows[0]);
    },
    async finish(id, lease, failure, retryInSeconds) {
      const rows = await rpc("finish_contact_digest", {
        digest_id: id,
        lease,
        failure: failure ?? null,
        retry_in_seconds: retryInSeconds ?? 300,
      });
      return (
        Array.isArray(rows) && (rows[0] as { recorded?: unknown } | undefined)?.recorded === true
      );
    },
  };
}

/** Plain words for the reasons and signals (SQL names them tersely). */
const WORDS: Record<string, string> = {
  "no page proof": "not sent through the site's page (no proof)",
  "invalid page proof": "a page proof that did not check out",
  "page proof never confirmed": "the page never confirmed its proof",
  "over the address budget": "over its network address's budget of one-by-one e-mails",
  "over the address burst budget": "too many at once from its network address",
  "over the overall budget": "over the budget of one-by-one e-mails for all addresses",
  links: "several links",
  gibberish: "random-looking words",
  "repeated-text": "the same text as other requests",
};

const words = (reason: string): string => WORDS[reason] ?? reason;
const PROOF_REASONS = ["no page proof", "invalid page proof", "page proof never confirmed"];

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** How many of the held requests were sent through the page (held for a budget only). */
function pageProved(digest: HeldDigest): number {
  return (
    digest.requestCount -
    PROOF_REASONS.reduce((sum, reason) => sum + (digest.reasons[reason] ?? 0), 0)
  );
}

export function digestSubject(digest: HeldDigest): string {
  const proved = pageProved(digest);
  return `Held back: ${plural(digest.requestCount, "meeting request")}${proved > 0 ? `, ${proved} sent through the page` : ""} (digest #${digest.id})`;
}

function describe(held: HeldRequest, index: number, timeZone: string): string[] {
  const marks = [
    ...held.signals.map(words),
    ...(held.copies > 1 ? [`this text ${held.copies} times in this digest`] : []),
    ...(held.sameAddress > 0
      ? [`${plural(held.sameAddress, "earlier request")} from its address`]
      : []),
  ];
  return [
    "",
    `${index + 1}. ${oneLine(held.name)} (${oneLine(held.organization)}) <${oneLine(held.email)}>`,
    `   Request #${held.id}, ${formatReceived(held.createdAt, timeZone)}`,
    `   Held for: ${held.heldFor.map(words).join("; ") || "—"}`,
    ...(marks.length > 0 ? [`   Marks: ${marks.join("; ")}`] : []),
    ...held.message
      .replace(/\r\n?/g, "\n")
      .split("\n")
      .map((line) => `     ${visible(line.replace(/\t/g, "    "))}`.trimEnd()),
    ...(held.truncated ? ["     […]"] : []),
  ];
}

/** The digest's text. */
export function digestText(digest: HeldDigest, timeZone = "UTC"): string {
  const reasons = Object.entries(digest.reasons).sort(
    ([a, x], [b, y]) => y - x || a.localeCompare(b),
  );
  const width = Math.max(...reasons.map(([reason]) => words(reason).length), 0);
  const countWidth = Math.max(...reasons.map(([, count]) => String(count).length), 0);
  const listed = digest.requests.length;
  const lines = [
    `${plural(digest.requestCount, "meeting request was", "meeting requests were")} held back, from ${plural(digest.clientCount, "network address", "network addresses")},`,
    `between ${formatReceived(digest.firstAt, timeZone)}`,
    `and ${formatReceived(digest.lastAt, timeZone)}.`,
    "They are stored; none of them was e-mailed to you one by one.",
    "",
    "Why they were held (a request can have several reasons):",
    ...reasons.map(
      ([reason, count]) =>
        `  ${words(reason).padEnd(width)}  ${String(count).padStart(countWidth)}`,
    ),
    "",
    listed === digest.requestCount
      ? `${listed === 1 ? "It" : `All ${listed}`}, the likeliest real requests first:`
      : `The first ${listed}, the likeliest real requests first:`,
    ...digest.requests.flatMap((held, index) => describe(held, index, timeZone)),
  ];
  if (listed < digest.requestCount) {
    lines.push(
      "",
      `${plural(digest.requestCount - listed, "more request is", "more requests are")} in this digest, not listed here. Every one, in the same order:`,
      `  SQL editor:  select * from meeting_requests_overview where digest = ${digest.id} order by digest_rank;`,
      `  locally:     npm run requests -- --digest ${digest.id}`,
    );
  }
  lines.push(
    "",
    "--",
    "A real lead among them? Reply to it from here, or find it in the table editor's",
    "meeting_requests_overview (digest, held_for), or `npm run requests` on a local backend.",
    `Digest #${digest.id} (public.contact_digests). At most one digest is sent every ${plural(Math.round(digest.intervalSeconds / 60), "minute")}.`,
  );
  return `${lines.join("\n")}\n`;
}

export function composeDigest(
  digest: HeldDigest,
  settings: ComposeSettings,
  now: Date,
): StaffEmail {
  const content = {
    subject: digestSubject(digest),
    text: digestText(digest, settings.timeZone),
    // The same id on every attempt of this digest.
    messageIdLocalPart: `meeting-request-digest-${digest.id}`,
  };
  return staffEmail(content, settings, now);
}

export interface DigestDependencies {
  config: NotifyConfig;
  digests: DigestStore;
  sendMail: (settings: SmtpSettings, email: StaffEmail) => Promise<string>;
  now: () => Date;
  log: (line: string) => void;
}

export interface DigestResult {
  /** The digest sent by this call, if one was due. */
  sent?: { id: number; requests: number };
  failed?: { id: number; attempt: number; error: string; retryInSeconds: number };
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Sends the due digest, if any, and records the outcome. */
export async function sendDigest(dependencies: DigestDependencies): Promise<DigestResult> {
  const { config, digests, log } = dependencies;
  const digest = await digests.claim(config.leaseSeconds);
  if (!digest) return {};
  const settings = { from: config.from, to: config.to, timeZone: config.timeZone };
  const email = composeDigest(digest, settings, dependencies.now());
  try {
    await dependencies.sendMail(config.smtp, email);
  } catch (error) {
    const retryInSeconds = retryDelaySeconds(digest.attempt, config.retry);
    await digests.finish(digest.id, digest.lease, message(error), retryInSeconds);
    log(
      `Digest #${digest.id}: attempt ${digest.attempt} failed (${message(error)}); next attempt in ${retryInSeconds} s`,
    );
    return {
      failed: { id: digest.id, attempt: digest.attempt, error: message(error), retryInSeconds },
    };
  }
  const recorded = await digests.finish(digest.id, digest.lease);
  log(
    `Digest #${digest.id}: ${plural(digest.requestCount, "held request")} reported to staff${recorded ? "" : "; the lease had expired, so the record was left to the other attempt"}`,
  );
  return { sent: { id: digest.id, requests: digest.requestCount } };
}
