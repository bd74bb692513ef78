/**
 * An e-mail as the functions send it: the headers every message gets (a Message-ID the same
 * across retries, Auto-Submitted) and the MIME, which nodemailer's MailComposer writes.
 * Typed text reaches a header only encoded or quoted, so it never adds one, and comes back as
 * typed; a display name is one line (its tabs and line breaks become a space).
 */
import { domainToASCII } from "node:url";

import MailComposer from "nodemailer/lib/mail-composer";
import { encodeWord } from "nodemailer/lib/mime-funcs";
import type MimeNode from "nodemailer/lib/mime-node";

export interface Mailbox {
  name?: string;
  address: string;
}

export interface Addressing {
  from: Mailbox;
  to: readonly Mailbox[];
}

export interface MailContent {
  subject: string;
  /** The text (LF line ends); the first part when there is HTML too. */
  text: string;
  html?: string;
  /** The Message-ID before the @: the same on every attempt, so mail clients fold a duplicate. */
  messageIdLocalPart: string;
  /** Only an address asciiAddress accepted. */
  replyTo?: Mailbox;
}

/** In the shape nodemailer's MailComposer takes. */
export type StaffEmail = ReturnType<typeof staffEmail>;

// Control characters are exactly what this makes visible (an ignore for each linter).
/* eslint-disable no-control-regex */
// deno-lint-ignore no-control-regex
const HIDDEN = /[\0-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/* eslint-enable no-control-regex */

/** Control characters (but tab and line breaks) and bidirectional overrides, shown as \u202e. */
export function visible(text: string): string {
  return text.replace(HIDDEN, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** Text as HTML: &, < and > named, quotes as numbers (safe in text and quoted attributes). */
export function escapeHtml(text: string): string {
  const named: Record<string, string> = { "&": "amp", "<": "lt", ">": "gt" };
  return text.replace(/[&<>"']/g, (char) => `&${named[char] ?? `#${char.charCodeAt(0)}`};`);
}

/**
 * nodemailer passes what looks like an encoded word through (a reader would decode a typed
 * `=?UTF-8?B?SGk=?=` into "Hi") and turns a line break into a space: such a subject is encoded
 * whole, with nodemailer's own encoder.
 */
function subjectHeader(subject: string): string {
  const text = visible(subject);
  return /=\?|[\r\n]/.test(text) ? encodeWord(text, "Q", 52) : text;
}

/**
 * The address as it can appear in an ASCII header: an internationalised domain becomes its
 * punycode form; a non-ASCII local part cannot be written without SMTPUTF8 (undefined).
 */
export function asciiAddress(address: string): string | undefined {
  const at = address.lastIndexOf("@");
  if (at < 1) return undefined;
  const local = address.slice(0, at);
  let domain = address.slice(at + 1);
  if (!/^[\x21-\x7e]+$/.test(local) || /[<>()[\]\\,;:"]/.test(local)) return undefined;
  if (!/^[\x21-\x7e]+$/.test(domain)) domain = domainToASCII(domain);
  return /^[A-Za-z0-9.-]+$/.test(domain) ? `${local}@${domain}` : undefined;
}

/** `Name <address>` or `address`, as configured (NOTIFY_EMAIL_FROM, NOTIFY_EMAIL_TO). */
export function parseMailbox(text: string): Mailbox | undefined {
  const angle = /^(.*?)\s*<([^<>\s]+@[^<>\s]+)>$/.exec(text.trim());
  const name = angle ? angle[1]!.replace(/^"(.*)"$/, "$1").trim() : undefined;
  const address = angle ? angle[2]! : text.trim();
  if (!/^[^@\s<>]+@[^@\s<>]+\.[^@\s<>]+$/.test(address) || asciiAddress(address) === undefined)
    return undefined;
  return name ? { name, address } : { address };
}

function headerAddress(mailbox: Mailbox) {
  return {
    name: visible(mailbox.name ?? "").replace(/[\t\r\n\u2028\u2029]+/g, " "),
    address: asciiAddress(mailbox.address) ?? mailbox.address,
  };
}

export function staffEmail(content: MailContent, addressing: Addressing, now: Date) {
  const from = headerAddress(addressing.from);
  const domain = from.address.split("@")[1] ?? "localhost";
  return {
    from,
    to: addressing.to.map(headerAddress),
    ...(content.replyTo ? { replyTo: headerAddress(content.replyTo) } : {}),
    subject: subjectHeader(content.subject),
    text: content.text,
    ...(content.html === undefined ? {} : { html: content.html }),
    date: now,
    messageId: `<${content.messageIdLocalPart}@${domain}>`,
    headers: { "Auto-Submitted": "auto-generated" },
  };
}

/**
 * The message's envelope and bytes. nodemailer quotes an ASCII display name, where readers still
 * decode an encoded word, and splits a long one into encoded words, between which Python 3.11
 * keeps a space (CPython gh-128110): a display name that holds `=?` or needs encoding is written
 * as one encoded word.
 */
export function mimeMessage(email: StaffEmail): MimeNode {
  const options = { newline: "\r\n", disableFileAccess: true, disableUrlAccess: true };
  const node = new MailComposer({ ...email, ...options }).compile();
  const internal = node as unknown as { _encodeAddressName?: (name: string) => string };
  const nodemailers = internal._encodeAddressName?.bind(node);
  if (!nodemailers) throw new Error("nodemailer no longer has MimeNode._encodeAddressName");
  internal._encodeAddressName = (name) => {
    const written = nodemailers(name);
    if (!name.includes("=?") && !written.startsWith("=?")) return written;
    const word = encodeWord(name, "B");
    return word.length <= 900 ? word : written; // a header line may hold 998 characters
  };
  return node;
}

/** The message as sent (CRLF line ends). */
export async function messageBytes(email: StaffEmail): Promise<Uint8Array> {
  return await mimeMessage(email).build();
}
