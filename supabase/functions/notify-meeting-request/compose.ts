/**
 * The e-mail staff get for one meeting request, and the line a chat channel gets. Pure: the
 * same input always gives the same message, so tests can check its exact text and headers.
 */
import { asciiAddress, oneLine, visible, type Mailbox } from "./mime.ts";
import type { MeetingRequest } from "./payload.ts";
import { staffEmail, type StaffEmail } from "./staff-email.ts";

export interface ComposeSettings {
  from: Mailbox;
  to: readonly Mailbox[];
  /** IANA time zone for "Received", e.g. "America/Chicago"; default UTC. */
  timeZone?: string;
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

export function bodyText(
  request: MeetingRequest,
  timeZone = "UTC",
  replyTo: Mailbox | undefined,
): string {
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

export function composeNotification(
  request: MeetingRequest,
  settings: ComposeSettings,
  now: Date,
): StaffEmail {
  const replyAddress = asciiAddress(request.email);
  const replyTo = replyAddress ? { name: oneLine(request.name), address: replyAddress } : undefined;
  const content = {
    subject: subjectFor(request),
    text: bodyText(request, settings.timeZone, replyTo),
    messageIdLocalPart: `meeting-request-${request.id}-${request.createdAt.getTime()}`,
    replyTo,
  };
  return staffEmail(content, settings, now);
}

/**
 * The chat message (Slack and Teams incoming webhooks both accept `{ "text": … }`). &, < and >
 * are escaped as Slack requires, so a visitor cannot write `<!channel>` or a disguised link.
 */
export function chatText(request: MeetingRequest, timeZone = "UTC"): string {
  const escape = (text: string): string =>
    text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  const lines = [
    `New meeting request: ${oneLine(request.name)} (${oneLine(request.organization)}), ${oneLine(request.email)}`,
    `Received ${formatReceived(request.createdAt, timeZone)}`,
    ...messageLines(request.message),
  ];
  return escape(lines.join("\n"));
}
