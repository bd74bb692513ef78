/**
 * Reads the messages the notification function sends (headers with RFC 2047 encoded words,
 * a base64 or plain text body): enough for the catcher's terminal line and for tests.
 */
export interface CaughtMessage {
  /** Lower-case header name → decoded value (the last one when repeated). */
  headers: Map<string, string>;
  body: string;
}

function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?UTF-8\?([BQ])\?([^?]*)\?=/gi, (_, encoding: string, text: string) =>
      encoding.toUpperCase() === "B"
        ? Buffer.from(text, "base64").toString("utf8")
        : Buffer.from(text.replace(/_/g, " ").replace(/=([0-9A-F]{2})/gi, (__, hex: string) => String.fromCharCode(parseInt(hex, 16))), "latin1").toString("utf8"),
    );
}

export function readMail(raw: string): CaughtMessage {
  const normalised = raw.replace(/\r\n/g, "\n");
  const split = normalised.indexOf("\n\n");
  const head = (split === -1 ? normalised : normalised.slice(0, split)).replace(/\n[ \t]+/g, " ");
  const headers = new Map<string, string>();
  for (const line of head.split("\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), decodeWords(line.slice(colon + 1).trim()));
  }
  const content = split === -1 ? "" : normalised.slice(split + 2);
  const base64 = /base64/i.test(headers.get("content-transfer-encoding") ?? "");
  return { headers, body: base64 ? Buffer.from(content, "base64").toString("utf8").replace(/\r\n/g, "\n") : content };
}
