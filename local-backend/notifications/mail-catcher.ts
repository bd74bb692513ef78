/**
 * The local mail catcher: an SMTP server on 127.0.0.1 that accepts every message and relays
 * nothing. Each is kept in memory, read with postal-mime and, given a folder, saved there as an
 * .eml file that any mail program opens as staff would see it.
 */
import fs from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";

import PostalMime, { decodeWords } from "postal-mime";
import { SMTPServer } from "smtp-server";

/** Headers by lower-case name (the last when repeated), encoded words decoded; the text, LF ends. */
export async function readMail(raw: string | Uint8Array) {
  const email = await PostalMime.parse(raw);
  return {
    headers: new Map(email.headers.map((header) => [header.key, decodeWords(header.value)])),
    body: (email.text ?? "").replace(/\r\n/g, "\n"),
    html: email.html,
    replyTo: email.replyTo?.[0]?.address,
  };
}

type ReadMail = Awaited<ReturnType<typeof readMail>>;

/** A caught message: as read, with the envelope's recipients, the raw text and its .eml file. */
type CaughtMail = ReadMail & { to: string[]; raw: string; file: string | undefined };

export type MailCatcher = Awaited<ReturnType<typeof startMailCatcher>>;

/** A name that sorts by time and names the request: 2026-11-23T17-05-01-123Z_meeting-request-42.eml */
function fileName(message: ReadMail, sequence: number): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const request = /<(meeting-request-\d+)-/.exec(message.headers.get("message-id") ?? "")?.[1];
  return `${stamp}_${request ?? `message-${sequence}`}.eml`;
}

export async function startMailCatcher(
  options: { port?: number; dir?: string; log?: (line: string) => void } = {},
) {
  const host = "127.0.0.1";
  const messages: CaughtMail[] = [];
  if (options.dir) fs.mkdirSync(options.dir, { recursive: true });

  const server = new SMTPServer({
    banner: "local mail catcher (nothing is relayed)",
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    size: 10 * 1024 * 1024,
    closeTimeout: 1_000,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        readMail(raw).then(
          (message) => {
            const sequence = messages.length + 1;
            const file = options.dir
              ? path.join(options.dir, fileName(message, sequence))
              : undefined;
            if (file) fs.writeFileSync(file, raw);
            const to = session.envelope.rcptTo.map((recipient) => recipient.address);
            messages.push({ ...message, raw, to, file });
            const subject = message.headers.get("subject") ?? "(no subject)";
            options.log?.(`${subject} → ${to.join(", ")}${file ? `: ${file}` : ""}`);
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  // A client that drops its connection mid-conversation (the function's process ending while the
  // backend stops) is that client's problem: unheard, the 'error' event would end the backend.
  server.on("error", (error: Error) =>
    options.log?.(`a mail client's connection failed: ${error.message}`),
  );

  return {
    host,
    port: (server.server.address() as AddressInfo).port,
    dir: options.dir,
    /** Everything caught since start, oldest first. */
    messages,
    /** Resolves once at least `count` messages have been caught. */
    async waitFor(count: number, timeoutMs = 30_000) {
      for (const deadline = Date.now() + timeoutMs; messages.length < count;) {
        if (Date.now() > deadline)
          throw new Error(
            `the mail catcher has ${messages.length} message(s), expected ${count} within ${timeoutMs} ms`,
          );
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return messages;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
