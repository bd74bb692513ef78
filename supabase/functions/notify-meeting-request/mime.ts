/**
 * What nodemailer cannot decide for us about the text and addresses that reach headers. Pure.
 * nodemailer encodes and quotes whatever it is given (staff-email.ts); these rules decide what
 * it is given: a visitor's text on one line with its controls made visible, and an address only
 * when it can be written in ASCII.
 */

/** Control characters and bidirectional overrides, made visible (\u202e) instead of obeyed. */
// Control characters are exactly what this makes visible (an ignore for each linter).
/* eslint-disable no-control-regex */
// deno-lint-ignore no-control-regex
const INVISIBLE =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/* eslint-enable no-control-regex */

export function visible(text: string): string {
  return text.replace(
    INVISIBLE,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** One line for a header: line breaks and tabs become spaces, controls become visible. */
export function oneLine(text: string): string {
  return visible(text.replace(/[\r\n\t\u2028\u2029]+/g, " ")).trim();
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
  if (!/^[^@\s<>]+@[^@\s<>]+\.[^@\s<>]+$/.test(address) || asciiAddress(address) === undefined)
    return undefined;
  return name ? { name, address } : { address };
}
