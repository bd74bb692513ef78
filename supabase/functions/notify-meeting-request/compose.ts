/**
 * The e-mail staff get for one meeting request, and the line a chat channel gets. Pure: the
 * same input always gives the same bytes, so tests can check the exact message.
 */
import {
  asciiAddress,
  base64Body,
  encodeWords,
  formatMailbox,
  oneLine,
  rfc5322Date,
  visible,
  type Mailbox,
} from "./mime.ts";
import type { MeetingRequest } from "./payload.ts";

export interface ComposeSettings {
  from: Mailbox;
  to: readonly Mailbox[];
  /** IANA time zone for "Received", e.g. "America/Chicago"; default UTC. */
  timeZone?: string;
}

export interface ComposedEmail {
  /** The envelope: MAIL FROM and RCPT TO. */
  envelopeFrom: string;
  recipients: string[];
  subject: string;
  /** The prospect's address, when it can be written in a header. */
  replyTo: string | undefined;
  /** The body as readable text (LF line ends), before transfer encoding. */
  text: string;
  /** The whole message as sent: CRLF line ends, headers, blank line, base64 body. */
  raw: string;
}

export function subjectFor(request: MeetingRequest): string {
  return `Meeting request: ${oneLine(request.name)} (${oneLine(request.organization)})`;
}

export function formatReceived(date: Date, timeZone = "UTC"): string {
  return new Intl.DateTimeFormat("en-US", {
    timeZone,
    weekday: "long",
    year: "numeric",
    month: "long",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    second: "2-digit",
    timeZoneName: "short",
  }).format(date);
}

/** The message's lines as they were stored ("Phone: …", "Fleet Size: …"), indented, made visible. */
function messageLines(message: string): string[] {
  return message
    .replace(/\r\n?/g, "\n")
    .replace(/[\u2028\u2029]/g, "\n")
    .split("\n")
    .map((line) => `  ${visible(line.replace(/\t/g, "    "))}`.trimEnd());
}

export function bodyText(request: MeetingRequest, timeZone = "UTC", replyTo: string | undefined): string {
  const lines = [
    "New meeting request from the website.",
    "",
    `Name:          ${oneLine(request.name)}`,
    `Organization:  ${oneLine(request.organization)}`,
    `E-mail:        ${oneLine(request.email)}`,
    `Received:      ${formatReceived(request.createdAt, timeZone)}`,
    "",
    "Message:",
    ...messageLines(request.message),
    "",
    "--",
    replyTo
      ? `Reply to this e-mail to answer ${oneLine(request.name)} directly.`
      : `The address ${oneLine(request.email)} cannot be set as Reply-To (non-ASCII before the @): write to it by hand.`,
    `Meeting request #${request.id} (public.contacts).`,
  ];
  return `${lines.join("\n")}\n`;
}

function messageId(request: MeetingRequest, from: Mailbox): string {
  const domain = (asciiAddress(from.address) ?? "localhost").split("@")[1];
  return `<meeting-request-${request.id}-${request.createdAt.getTime()}@${domain}>`;
}

export function composeNotification(request: MeetingRequest, settings: ComposeSettings, now: Date): ComposedEmail {
  const replyAddress = asciiAddress(request.email);
  const replyTo = replyAddress ? formatMailbox({ name: request.name, address: replyAddress }) : undefined;
  const subject = subjectFor(request);
  const text = bodyText(request, settings.timeZone, replyTo);
  const headers = [
    `From: ${formatMailbox(settings.from)}`,
    `To: ${settings.to.map(formatMailbox).join(",\r\n ")}`,
    ...(replyTo ? [`Reply-To: ${replyTo}`] : []),
    `Subject: ${encodeWords(subject)}`,
    `Date: ${rfc5322Date(now)}`,
    // The same id on every attempt: a rare duplicate is folded by mail clients.
    `Message-ID: ${messageId(request, settings.from)}`,
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
    "Content-Transfer-Encoding: base64",
    "Auto-Submitted: auto-generated",
  ];
  const raw = `${headers.join("\r\n")}\r\n\r\n${base64Body(text.replace(/\n/g, "\r\n"))}\r\n`;
  return {
    envelopeFrom: asciiAddress(settings.from.address) ?? settings.from.address,
    recipients: settings.to.map((mailbox) => asciiAddress(mailbox.address) ?? mailbox.address),
    subject,
    replyTo,
    text,
    raw,
  };
}

/**
 * The chat message (Slack and Teams incoming webhooks both accept `{ "text": … }`). &, < and >
 * are escaped as Slack requires, so a visitor cannot write `<!channel>` or a disguised link.
 */
export function chatText(request: MeetingRequest, timeZone = "UTC"): string {
  const escape = (text: string): string => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  const lines = [
    `New meeting request: ${oneLine(request.name)} (${oneLine(request.organization)}), ${oneLine(request.email)}`,
    `Received ${formatReceived(request.createdAt, timeZone)}`,
    ...messageLines(request.message),
  ];
  return escape(lines.join("\n"));
}
