/** Reads back a message the function composed: unfolded headers with encoded words decoded, and the body. */
export interface ReadMessage {
  headers: Map<string, string>;
  /** Header values as written (still encoded), for checks on the wire format. */
  rawHeaders: Map<string, string>;
  body: string;
}

function decodeBase64(text: string): string {
  return new TextDecoder().decode(Uint8Array.from(atob(text.replace(/\s+/g, "")), (char) => char.charCodeAt(0)));
}

export function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?UTF-8\?B\?([A-Za-z0-9+/=]*)\?=/gi, (_, encoded: string) => decodeBase64(encoded));
}

export function readMessage(raw: string): ReadMessage {
  const split = raw.indexOf("\r\n\r\n");
  const head = raw.slice(0, split).replace(/\r\n[ \t]/g, " ");
  const headers = new Map<string, string>();
  const rawHeaders = new Map<string, string>();
  for (const line of head.split("\r\n")) {
    const colon = line.indexOf(":");
    const name = line.slice(0, colon).toLowerCase();
    const value = line.slice(colon + 1).trim();
    rawHeaders.set(name, value);
    headers.set(name, decodeWords(value));
  }
  return { headers, rawHeaders, body: decodeBase64(raw.slice(split + 4)).replace(/\r\n/g, "\n") };
}
