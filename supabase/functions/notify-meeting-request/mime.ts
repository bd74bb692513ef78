/**
 * The few pieces of MIME (RFC 5322, 2045, 2047) a plain-text notification needs. Pure.
 * Everything a visitor typed reaches headers only through these functions, so a line break or
 * a quote in a name can never add a header or break an address.
 */

const encoder = new TextEncoder();

/** Control characters and bidirectional overrides, made visible (\u202e) instead of obeyed. */
// Control characters are exactly what this makes visible (an ignore for each linter).
/* eslint-disable no-control-regex */
// deno-lint-ignore no-control-regex
const INVISIBLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/* eslint-enable no-control-regex */

export function visible(text: string): string {
  return text.replace(INVISIBLE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** One line for a header: line breaks and tabs become spaces, controls become visible. */
export function oneLine(text: string): string {
  return visible(text.replace(/[\r\n\t\u2028\u2029]+/g, " ")).trim();
}

function isPlainAscii(text: string): boolean {
  return /^[\x20-\x7e]*$/.test(text) && !text.includes("=?");
}

function base64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/**
 * RFC 2047 encoded words (UTF-8, base64), each at most 60 characters and never splitting a
 * character, joined by folding whitespace. Plain ASCII text is returned as it is.
 */
export function encodeWords(text: string): string {
  if (isPlainAscii(text)) return text;
  const words: string[] = [];
  let chunk = "";
  for (const char of text) {
    // 36 bytes of UTF-8 become 48 characters of base64: a 60-character word that fits a
    // 78-character line even after a header name such as "Reply-To: ".
    if (encoder.encode(chunk + char).length > 36) {
      words.push(chunk);
      chunk = "";
    }
    chunk += char;
  }
  if (chunk) words.push(chunk);
  return words.map((word) => `=?UTF-8?B?${base64(encoder.encode(word))}?=`).join("\r\n ");
}

/** A display name for an address header: quoted when ASCII, encoded words otherwise. */
export function displayName(name: string): string {
  const single = oneLine(name);
  if (isPlainAscii(single)) return `"${single.replace(/(["\\])/g, "\\$1")}"`;
  return encodeWords(single);
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
  if (!/^[\x21-\x7e]+$/.test(domain)) {
    try {
      domain = new URL(`http://${domain}`).hostname;
    } catch {
      return undefined;
    }
  }
  return /^[A-Za-z0-9.-]+$/.test(domain) ? `${local}@${domain}` : undefined;
}

export interface Mailbox {
  name?: string;
  address: string;
}

/** `Name <address>` or `address`, as configured (NOTIFY_EMAIL_FROM, NOTIFY_EMAIL_TO). */
export function parseMailbox(text: string): Mailbox | undefined {
  const trimmed = text.trim();
  const angle = /^(.*?)\s*<([^<>\s]+@[^<>\s]+)>$/.exec(trimmed);
  const name = angle ? angle[1]!.replace(/^"(.*)"$/, "$1").trim() : undefined;
  const address = angle ? angle[2]! : trimmed;
  if (!/^[^@\s<>]+@[^@\s<>]+\.[^@\s<>]+$/.test(address) || asciiAddress(address) === undefined) return undefined;
  return name ? { name, address } : { address };
}

export function formatMailbox(mailbox: Mailbox): string {
  const address = asciiAddress(mailbox.address) ?? mailbox.address;
  if (!mailbox.name) return address;
  const name = displayName(mailbox.name);
  // After encoded words, the address goes on a folded line of its own.
  return name.startsWith("=?") ? `${name}\r\n <${address}>` : `${name} <${address}>`;
}

/** Base64 body lines of at most 76 characters (RFC 2045). */
export function base64Body(text: string): string {
  return (base64(encoder.encode(text)).match(/.{1,76}/g) ?? []).join("\r\n");
}

/** RFC 5322 date, e.g. "Mon, 23 Nov 2026 17:05:01 +0000". */
export function rfc5322Date(date: Date): string {
  return date.toUTCString().replace(/GMT$/, "+0000");
}
