/**
 * Reads an e-mail the notification function sent, with postal-mime: the one reader for the mail
 * catcher (its terminal line, the .eml file's name) and for the tests, under Node and under Deno
 * (supabase/functions/notify-meeting-request/*.test.ts import this file).
 */
import PostalMime, { decodeWords } from "postal-mime";

export interface ReadMail {
  /** Lower-case header name → value with encoded words decoded (the last one when repeated). */
  headers: Map<string, string>;
  /** The text part, LF line ends. */
  body: string;
  /** The HTML part, if any. */
  html: string | undefined;
  /** The first Reply-To address (the prospect's, on a one-by-one e-mail), as postal-mime parsed it. */
  replyTo: string | undefined;
}

export async function readMail(raw: string | Uint8Array): Promise<ReadMail> {
  const email = await PostalMime.parse(raw);
  const headers = new Map(email.headers.map((header) => [header.key, decodeWords(header.value)]));
  return {
    headers,
    body: (email.text ?? "").replace(/\r\n/g, "\n"),
    html: email.html,
    replyTo: email.replyTo?.[0]?.address,
  };
}
