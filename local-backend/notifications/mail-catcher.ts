/**
 * The local mail catcher: an SMTP server on 127.0.0.1 that accepts every message and keeps
 * it (nothing is relayed). Each message is written as an .eml file, which any mail program
 * opens exactly as staff would see it, into the local data folder, and announced in one line.
 */
import fs from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";

import { SMTPServer, type SMTPServerSession } from "smtp-server";

import { readMail, type ReadMail } from "./read-mail";

export interface CaughtMail extends ReadMail {
  from: string;
  to: string[];
  raw: string;
  /** The .eml file, when the catcher writes to a folder. */
  file: string | undefined;
}

export interface MailCatcherOptions {
  /** Default 0 (any free port). */
  port?: number;
  host?: string;
  /** Folder for the .eml files; undefined keeps messages in memory only. */
  dir?: string;
  /** One line per message caught. */
  log?: (line: string) => void;
}

export interface MailCatcher {
  host: string;
  port: number;
  dir: string | undefined;
  /** Everything caught since start, oldest first. */
  messages: CaughtMail[];
  /** Resolves once at least `count` messages have been caught. */
  waitFor(count: number, timeoutMs?: number): Promise<CaughtMail[]>;
  close(): Promise<void>;
}

/** A file name that sorts by time and names the request: 2026-11-23T17-05-01-123Z_meeting-request-42.eml */
function fileName(message: ReadMail, received: Date, sequence: number): string {
  const stamp = received.toISOString().replace(/[:.]/g, "-");
  const request = /<(meeting-request-\d+)-/.exec(message.headers.get("message-id") ?? "")?.[1];
  return `${stamp}_${request ?? `message-${sequence}`}.eml`;
}

export async function startMailCatcher(options: MailCatcherOptions = {}): Promise<MailCatcher> {
  const host = options.host ?? "127.0.0.1";
  const messages: CaughtMail[] = [];
  const waiters = new Set<() => void>();
  if (options.dir) fs.mkdirSync(options.dir, { recursive: true });

  async function keep(raw: string, envelope: SMTPServerSession["envelope"]): Promise<void> {
    const message = await readMail(raw);
    let file: string | undefined;
    if (options.dir) {
      file = path.join(options.dir, fileName(message, new Date(), messages.length + 1));
      fs.writeFileSync(file, raw);
    }
    const from = envelope.mailFrom ? envelope.mailFrom.address : "";
    const to = envelope.rcptTo.map((recipient) => recipient.address);
    messages.push({ ...message, raw, from, to, file });
    options.log?.(
      `${message.headers.get("subject") ?? "(no subject)"} → ${to.join(", ")}${file ? `: ${file}` : ""}`,
    );
    for (const wake of waiters) wake();
  }

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
      stream.on("error", callback);
      stream.on("end", () => {
        keep(Buffer.concat(chunks).toString("utf8"), session.envelope).then(
          () => callback(),
          (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
        );
      });
    },
  });

  // smtp-server passes its listener's errors on as its own 'error' events.
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  // A client that drops its connection mid-conversation (the function's process ending while the
  // backend stops) is that client's problem: without a listener, the 'error' event would end the
  // whole backend before it closes the database. (Added after listening: a port taken is the caller's to report.)
  server.on("error", (error: Error) =>
    options.log?.(`a mail client's connection failed: ${error.message}`),
  );
  const port = (server.server.address() as AddressInfo).port;

  return {
    host,
    port,
    dir: options.dir,
    messages,
    waitFor(count, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          if (messages.length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(messages);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `the mail catcher has ${messages.length} message(s), expected ${count} within ${timeoutMs} ms`,
            ),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close() {
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
