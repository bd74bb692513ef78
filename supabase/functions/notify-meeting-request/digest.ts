/**
 * The digest call (`{ "type": "DIGEST" }`, posted by the pg_cron job or the local backend's
 * stand-in when requests are held): one e-mail with the counts and samples of the meeting
 * requests the screening held back as suspect (20261124110000_request_screening.sql), which are
 * never e-mailed one by one. The database decides what is due (at most one digest per
 * min_interval_seconds) and leases it; the outcome is recorded like a notification's.
 */
import type { NotifyConfig } from "./config.ts";
import { StoreError, type Rpc } from "./delivery-store.ts";
import { asciiAddress, base64Body, encodeWords, formatMailbox, oneLine, rfc5322Date, visible, type Mailbox } from "./mime.ts";
import { formatReceived } from "./compose.ts";
import { retryDelaySeconds } from "./retry.ts";
import type { Envelope, SmtpSettings } from "./smtp.ts";

/** public.claim_contact_digest's default: at most one digest e-mail per 20 minutes (3 an hour). */
export const DEFAULT_DIGEST_INTERVAL_SECONDS = 1200;

export interface DigestSample {
  id: number;
  createdAt: Date;
  name: string;
  organization: string;
  email: string;
  /** The first 400 characters. */
  message: string;
  truncated: boolean;
  signals: string[];
  proof: string | null;
  /** How many held requests carry the same text. */
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
  /** Why requests were held → how many (a request can have several reasons). */
  reasons: Record<string, number>;
  samples: DigestSample[];
}

export interface DigestStore {
  /** The due digest, leased to this caller; undefined when none is due. */
  claim(minIntervalSeconds: number | undefined, leaseSeconds: number): Promise<HeldDigest | undefined>;
  /** Records the outcome; false when the lease was lost. */
  finish(id: number, lease: string, failure?: string, retryInSeconds?: number): Promise<boolean>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function date(value: unknown, what: string): Date {
  const parsed = typeof value === "string" ? new Date(value) : undefined;
  if (!parsed || Number.isNaN(parsed.getTime())) throw new StoreError(`the digest claim answered without ${what}`);
  return parsed;
}

function sample(value: unknown): DigestSample {
  if (!isRecord(value)) throw new StoreError("the digest claim answered with a sample that is not an object");
  const text = (field: string): string => (typeof value[field] === "string" ? (value[field] as string) : "");
  return {
    id: Number(value.id),
    createdAt: date(value.created_at, "a sample's time"),
    name: text("name"),
    organization: text("organization"),
    email: text("email"),
    message: text("message"),
    truncated: value.truncated === true,
    signals: Array.isArray(value.signals) ? value.signals.map(String) : [],
    proof: typeof value.proof === "string" ? value.proof : null,
    copies: Number(value.copies ?? 1),
  };
}

/** A row of public.claim_contact_digest, checked. */
export function parseDigestRow(row: unknown): HeldDigest {
  if (!isRecord(row) || typeof row.lease_token !== "string" || typeof row.digest_id !== "number") {
    throw new StoreError("the digest claim answered with an unexpected row");
  }
  const reasons: Record<string, number> = {};
  if (isRecord(row.reasons)) for (const [reason, count] of Object.entries(row.reasons)) reasons[reason] = Number(count);
  return {
    id: row.digest_id,
    lease: row.lease_token,
    attempt: Number(row.attempt),
    requestCount: Number(row.request_count),
    firstAt: date(row.first_at, "first_at"),
    lastAt: date(row.last_at, "last_at"),
    clientCount: Number(row.client_count),
    reasons,
    samples: Array.isArray(row.samples) ? row.samples.map(sample) : [],
  };
}

export function restDigestStore(rpc: Rpc): DigestStore {
  return {
    async claim(minIntervalSeconds, leaseSeconds) {
      const args: Record<string, unknown> = { lease_seconds: leaseSeconds };
      if (minIntervalSeconds !== undefined) args.min_interval_seconds = minIntervalSeconds;
      const rows = await rpc("claim_contact_digest", args);
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
      return Array.isArray(rows) && (rows[0] as { recorded?: unknown } | undefined)?.recorded === true;
    },
  };
}

/** Plain words for the screening's reasons (SQL names them tersely). */
const REASON_WORDS: Record<string, string> = {
  "no page proof": "not sent through the site's page (no proof)",
  "invalid page proof": "a page proof that did not check out",
  "page proof never confirmed": "the page never confirmed its proof",
  links: "several links",
  gibberish: "random-looking words",
  "repeated-text": "the same text as other requests",
};

function reasonWords(reason: string): string {
  return REASON_WORDS[reason] ?? reason;
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** The proof's reason (as the SQL counts it) and the content signals of one sample. */
function heldFor(held: DigestSample): string {
  const proof = { missing: "no page proof", invalid: "invalid page proof", pending: "page proof never confirmed" }[held.proof ?? ""];
  return [...(proof ? [proof] : []), ...held.signals].map(reasonWords).join("; ") || "—";
}

export function digestSubject(digest: HeldDigest): string {
  return `Held back: ${plural(digest.requestCount, "suspect meeting request")} (digest #${digest.id})`;
}

/** The digest's text; `intervalSeconds` is the least time between two digests. */
export function digestText(digest: HeldDigest, timeZone = "UTC", intervalSeconds = DEFAULT_DIGEST_INTERVAL_SECONDS): string {
  const reasons = Object.entries(digest.reasons).sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
  const width = Math.max(...reasons.map(([reason]) => reasonWords(reason).length), 0);
  const countWidth = Math.max(...reasons.map(([, count]) => String(count).length), 0);
  const lines = [
    `${plural(digest.requestCount, "meeting request was", "meeting requests were")} held back as suspect, from ${plural(digest.clientCount, "network address", "network addresses")},`,
    `between ${formatReceived(digest.firstAt, timeZone)}`,
    `and ${formatReceived(digest.lastAt, timeZone)}.`,
    "They are stored; none of them was e-mailed to you one by one.",
    "",
    "Why they were held (a request can have several reasons):",
    ...reasons.map(([reason, count]) => `  ${reasonWords(reason).padEnd(width)}  ${String(count).padStart(countWidth)}`),
    "",
    digest.samples.length === digest.requestCount
      ? "The requests:"
      : `${plural(digest.samples.length, "sample")}, one per distinct text, the most repeated first:`,
  ];
  digest.samples.forEach((held, index) => {
    lines.push(
      "",
      `${index + 1}. ${oneLine(held.name)} (${oneLine(held.organization)}) <${oneLine(held.email)}>`,
      `   Request #${held.id}, ${formatReceived(held.createdAt, timeZone)}${held.copies > 1 ? `; this text ${held.copies} times` : ""}`,
      `   Held for: ${heldFor(held)}`,
      ...held.message
        .replace(/\r\n?/g, "\n")
        .split("\n")
        .map((line) => `     ${visible(line.replace(/\t/g, "    "))}`.trimEnd()),
    );
    if (held.truncated) lines.push("     […]");
  });
  lines.push(
    "",
    "--",
    "A real lead among them? Every held request is in the table editor's meeting_requests_overview",
    "(suspect = true), or `npm run requests` on a local backend; reply to it from there.",
    `Digest #${digest.id} (public.contact_digests). At most one digest is sent every ${plural(Math.round(intervalSeconds / 60), "minute")}.`,
  );
  return `${lines.join("\n")}\n`;
}

export interface ComposedDigest {
  envelopeFrom: string;
  recipients: string[];
  subject: string;
  text: string;
  raw: string;
}

export interface DigestSettings {
  from: Mailbox;
  to: readonly Mailbox[];
  timeZone?: string;
  intervalSeconds?: number;
}

export function composeDigest(digest: HeldDigest, settings: DigestSettings, now: Date): ComposedDigest {
  const subject = digestSubject(digest);
  const text = digestText(digest, settings.timeZone, settings.intervalSeconds);
  const domain = (asciiAddress(settings.from.address) ?? "localhost").split("@")[1];
  const headers = [
    `From: ${formatMailbox(settings.from)}`,
    `To: ${settings.to.map(formatMailbox).join(",\r\n ")}`,
    `Subject: ${encodeWords(subject)}`,
    `Date: ${rfc5322Date(now)}`,
    // The same id on every attempt of this digest: a rare duplicate is folded by mail clients.
    `Message-ID: <meeting-request-digest-${digest.id}@${domain}>`,
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
    "Content-Transfer-Encoding: base64",
    "Auto-Submitted: auto-generated",
  ];
  return {
    envelopeFrom: asciiAddress(settings.from.address) ?? settings.from.address,
    recipients: settings.to.map((mailbox) => asciiAddress(mailbox.address) ?? mailbox.address),
    subject,
    text,
    raw: `${headers.join("\r\n")}\r\n\r\n${base64Body(text.replace(/\n/g, "\r\n"))}\r\n`,
  };
}

export interface DigestDependencies {
  config: NotifyConfig;
  digests: DigestStore;
  sendMail: (settings: SmtpSettings, envelope: Envelope, raw: string) => Promise<string>;
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
  const digest = await digests.claim(config.digestMinIntervalSeconds, config.leaseSeconds);
  if (!digest) return {};
  const settings = { from: config.from, to: config.to, timeZone: config.timeZone, intervalSeconds: config.digestMinIntervalSeconds };
  const email = composeDigest(digest, settings, dependencies.now());
  try {
    await dependencies.sendMail(config.smtp, { from: email.envelopeFrom, to: email.recipients }, email.raw);
  } catch (error) {
    const retryInSeconds = retryDelaySeconds(digest.attempt, config.retry);
    await digests.finish(digest.id, digest.lease, message(error), retryInSeconds);
    log(`Digest #${digest.id}: attempt ${digest.attempt} failed (${message(error)}); next attempt in ${retryInSeconds} s`);
    return { failed: { id: digest.id, attempt: digest.attempt, error: message(error), retryInSeconds } };
  }
  const recorded = await digests.finish(digest.id, digest.lease);
  log(`Digest #${digest.id}: ${plural(digest.requestCount, "held request")} reported to staff${recorded ? "" : "; the lease had expired, so the record was left to the other attempt"}`);
  return { sent: { id: digest.id, requests: digest.requestCount } };
}
