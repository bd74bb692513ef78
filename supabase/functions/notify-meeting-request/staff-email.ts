/**
 * The one place where the function's e-mails get their headers: a meeting request (compose.ts),
 * the digest of held requests (digest.ts) and the site report (report.ts) all go through
 * staffEmail. nodemailer's MailComposer writes the message (RFC 2047 encoded words, quoting,
 * folding, transfer encoding, multipart/alternative), so what a visitor typed reaches a header
 * only as an encoded or quoted value and can never add one.
 */
import MailComposer from "nodemailer/lib/mail-composer";
import type MimeNode from "nodemailer/lib/mime-node";

import { asciiAddress, type Mailbox } from "./mime.ts";

export interface Addressing {
  from: Mailbox;
  to: readonly Mailbox[];
}

/** What differs between the kinds of e-mail. */
export interface StaffEmailContent {
  subject: string;
  /** The text (LF line ends); the first part when there is HTML too. */
  text: string;
  /** An HTML alternative (the site report). */
  html?: string;
  /** The Message-ID before the @: the same on every attempt, so mail clients fold a rare duplicate. */
  messageIdLocalPart: string;
  /** Whom answers reach (the prospect); only an address mime.ts's asciiAddress accepted. */
  replyTo?: Mailbox;
}

interface HeaderAddress {
  name: string;
  address: string;
}

/** A whole e-mail, in the shape nodemailer's MailComposer takes. */
export interface StaffEmail {
  from: HeaderAddress;
  to: HeaderAddress[];
  replyTo?: HeaderAddress;
  subject: string;
  text: string;
  html?: string;
  date: Date;
  messageId: string;
  headers: Record<string, string>;
}

function headerAddress(mailbox: Mailbox): HeaderAddress {
  return { name: mailbox.name ?? "", address: asciiAddress(mailbox.address) ?? mailbox.address };
}

export function staffEmail(
  content: StaffEmailContent,
  addressing: Addressing,
  now: Date,
): StaffEmail {
  const from = headerAddress(addressing.from);
  const domain = from.address.split("@")[1] ?? "localhost";
  return {
    from,
    to: addressing.to.map(headerAddress),
    ...(content.replyTo ? { replyTo: headerAddress(content.replyTo) } : {}),
    subject: content.subject,
    text: content.text,
    ...(content.html === undefined ? {} : { html: content.html }),
    date: now,
    messageId: `<${content.messageIdLocalPart}@${domain}>`,
    headers: { "Auto-Submitted": "auto-generated" },
  };
}

/** The MIME tree of the message: its envelope (MAIL FROM, RCPT TO) and its bytes. */
export function mimeMessage(email: StaffEmail): MimeNode {
  return new MailComposer({
    ...email,
    newline: "\r\n",
    disableFileAccess: true,
    disableUrlAccess: true,
  }).compile();
}

/** The message as sent (CRLF line ends): for an .eml file and for tests. */
export async function messageBytes(email: StaffEmail): Promise<Uint8Array> {
  return await mimeMessage(email).build();
}
