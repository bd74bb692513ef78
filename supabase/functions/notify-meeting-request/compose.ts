/**
 * What staff read: the e-mail about a meeting request, its chat message, and the digest of the
 * requests held back. Pure. A visitor's text is shown as typed, later lines under the first;
 * control characters and bidirectional overrides are shown as \u202e instead of obeyed.
 */
import { asciiAddress, staffEmail, visible, type Addressing, type StaffEmail } from "./mail.ts";
import type { HeldDigest, HeldRequest, MeetingRequest } from "./payload.ts";

export interface ComposeSettings extends Addressing {
  /** IANA time zone for the times shown, e.g. "America/Chicago"; default UTC. */
  timeZone?: string;
}

/** The booking page's link for each request (booking-links.ts), when booking is set up. */
export type BookingLinks = ReadonlyMap<number, string>;

export function formatReceived(date: Date, timeZone = "UTC"): string {
  const style = { dateStyle: "full", timeStyle: "long" } as const;
  return new Intl.DateTimeFormat("en-US", { timeZone, ...style }).format(date);
}

const lines = (text: string): string[] => text.split(/\r\n?|\n|\u2028|\u2029/).map(visible);

/** The text in the body: its later lines indented by `indent` spaces, under the first. */
const inline = (text: string, indent: number): string =>
  lines(text).join(`\n${" ".repeat(indent)}`);

const indented = (text: string, indent: number): string[] =>
  lines(text).map((line) => `${" ".repeat(indent)}${line}`.trimEnd());

const field = (label: string, text: string): string => `${label.padEnd(15)}${inline(text, 15)}`;

export function composeNotification(
  request: MeetingRequest,
  settings: ComposeSettings,
  now: Date,
  links?: BookingLinks,
): StaffEmail {
  const address = asciiAddress(request.email);
  const link = links?.get(request.id);
  const text = [
    "New meeting request from the website.",
    "",
    field("Name:", request.name),
    field("Organization:", request.organization),
    field("E-mail:", request.email),
    field("Received:", formatReceived(request.created_at, settings.timeZone)),
    ...(link ? [field("Book a time:", link)] : []),
    "",
    "Message:",
    ...indented(request.message, 2),
    "",
    "--",
    address
      ? `Reply to this e-mail to answer ${inline(request.name, 0)} directly.`
      : `The address ${visible(request.email)} cannot be set as Reply-To (non-ASCII before the @): write to it by hand.`,
    `Meeting request #${request.id} (public.contacts).`,
  ];
  const content = {
    subject: `Meeting request: ${request.name} (${request.organization})`,
    text: `${text.join("\n")}\n`,
    messageIdLocalPart: `meeting-request-${request.id}-${request.created_at.getTime()}`,
    replyTo: address ? { name: request.name, address } : undefined,
  };
  return staffEmail(content, settings, now);
}

/**
 * The chat message (Slack and Teams incoming webhooks both accept `{ "text": … }`). &, < and >
 * are escaped as Slack requires, so a visitor cannot write `<!channel>` or a disguised link.
 */
export function chatText(request: MeetingRequest, timeZone = "UTC"): string {
  const text = [
    `New meeting request: ${inline(request.name, 2)} (${inline(request.organization, 2)}), ${visible(request.email)}`,
    `Received ${formatReceived(request.created_at, timeZone)}`,
    ...indented(request.message, 2),
  ].join("\n");
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** Plain words for the digest's reasons and signals (SQL names them tersely). */
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

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

export function digestSubject(digest: HeldDigest): string {
  const unproved = PROOF_REASONS.reduce((sum, reason) => sum + (digest.reasons[reason] ?? 0), 0);
  const proved = digest.request_count - unproved;
  const sentThroughPage = proved > 0 ? `, ${proved} sent through the page` : "";
  return `Held back: ${plural(digest.request_count, "meeting request")}${sentThroughPage} (digest #${digest.digest_id})`;
}

function describe(held: HeldRequest, index: number, timeZone: string, link?: string): string[] {
  const marks = [
    ...held.signals.map(words),
    ...(held.copies > 1 ? [`this text ${held.copies} times in this digest`] : []),
    ...(held.same_address > 0
      ? [`${plural(held.same_address, "earlier request")} from its address`]
      : []),
  ];
  return [
    "",
    `${index + 1}. ${inline(held.name, 3)} (${inline(held.organization, 3)}) <${visible(held.email)}>`,
    `   Request #${held.id}, ${formatReceived(held.created_at, timeZone)}`,
    ...(link ? [`   Book a time: ${link}`] : []),
    `   Held for: ${held.held_for.map(words).join("; ") || "—"}`,
    ...(marks.length > 0 ? [`   Marks: ${marks.join("; ")}`] : []),
    ...indented(held.message, 5),
    ...(held.truncated ? ["     […]"] : []),
  ];
}

export function digestText(digest: HeldDigest, timeZone = "UTC", links?: BookingLinks): string {
  const { digest_id: id, request_count: total } = digest;
  const reasons = Object.entries(digest.reasons).sort(
    ([a, x], [b, y]) => y - x || a.localeCompare(b),
  );
  const width = Math.max(...reasons.map(([reason]) => words(reason).length), 0);
  const countWidth = Math.max(...reasons.map(([, count]) => String(count).length), 0);
  const listed = digest.requests.length;
  const text = [
    `${plural(total, "meeting request was", "meeting requests were")} held back, from ${plural(digest.client_count, "network address", "network addresses")},`,
    `between ${formatReceived(digest.first_at, timeZone)}`,
    `and ${formatReceived(digest.last_at, timeZone)}.`,
    "They are stored; none of them was e-mailed to you one by one.",
    "",
    "Why they were held (a request can have several reasons):",
    ...reasons.map(
      ([reason, count]) =>
        `  ${words(reason).padEnd(width)}  ${String(count).padStart(countWidth)}`,
    ),
    "",
    listed === total
      ? `${listed === 1 ? "It" : `All ${listed}`}, the likeliest real requests first:`
      : `The first ${listed}, the likeliest real requests first:`,
    ...digest.requests.flatMap((held, index) =>
      describe(held, index, timeZone, links?.get(held.id)),
    ),
  ];
  if (listed < total) {
    text.push(
      "",
      `${plural(total - listed, "more request is", "more requests are")} in this digest, not listed here. Every one, in the same order:`,
      `  SQL editor:  select * from meeting_requests_overview where digest = ${id} order by digest_rank;`,
      `  locally:     npm run requests -- --digest ${id}`,
    );
  }
  text.push(
    "",
    "--",
    "A real lead among them? Reply to it from here, or find it in the table editor's",
    "meeting_requests_overview (digest, held_for), or `npm run requests` on a local backend.",
    `Digest #${id} (public.contact_digests). At most one digest is sent every ${plural(Math.round(digest.interval_seconds / 60), "minute")}.`,
  );
  return `${text.join("\n")}\n`;
}

export function composeDigest(
  digest: HeldDigest,
  settings: ComposeSettings,
  now: Date,
  links?: BookingLinks,
): StaffEmail {
  const content = {
    subject: digestSubject(digest),
    text: digestText(digest, settings.timeZone, links),
    // The same id on every attempt of this digest.
    messageIdLocalPart: `meeting-request-digest-${digest.digest_id}`,
  };
  return staffEmail(content, settings, now);
}
