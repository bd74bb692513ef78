/**
 * Sends one e-mail with nodemailer's SMTPConnection: implicit TLS (465), STARTTLS that must
 * succeed (any other port), or plain SMTP (config.ts allows it only to this machine). Ours: every
 * failure is one sentence without the password, and a refused recipient fails the whole message.
 */
import { Readable } from "node:stream";

import SMTPConnection from "nodemailer/lib/smtp-connection";

import { mimeMessage, type StaffEmail } from "./mail.ts";

export type SmtpSecurity = "implicit-tls" | "starttls" | "plain";

export interface SmtpSettings {
  host: string;
  port: number;
  security: SmtpSecurity;
  username?: string;
  password?: string;
  /** Longest wait for connecting, the greeting and any one reply. */
  timeoutMs: number;
  /** Extra trusted certificates in PEM (tests with a throw-away authority). */
  caCerts?: string[];
}

type Stage = "connecting" | "login" | "sending";

interface NodemailerError extends Error {
  code?: string;
  response?: string;
  command?: string;
  rejectedErrors?: NodemailerError[];
  recipient?: string;
}

/** The envelope given to SMTPConnection.send, which records each recipient's reply on it. */
interface TrackedEnvelope {
  from: string | false;
  to: string[];
  rejectedErrors?: NodemailerError[];
}

class RecipientRefused extends Error {
  constructor(readonly refusals: NodemailerError[]) {
    super("a recipient was refused");
  }
}

/**
 * nodemailer goes on to DATA once one recipient was accepted. This stream is first read when
 * every RCPT TO has its reply, and fails if one was refused: the connection closes before the
 * data ends, so nobody gets the message (the retry then reaches everyone).
 */
function unlessRecipientRefused(envelope: TrackedEnvelope, bytes: Uint8Array): Readable {
  return new Readable({
    read() {
      if (envelope.rejectedErrors?.length) {
        this.destroy(new RecipientRefused(envelope.rejectedErrors));
        return;
      }
      this.push(bytes);
      this.push(null);
    },
  });
}

function refusalSentence(where: string, refusals: readonly NodemailerError[]): string {
  const each = refusals.map(
    (refusal) => `${refusal.recipient ?? "a recipient"} (${refusal.response ?? refusal.message})`,
  );
  return `SMTP server ${where} refused ${each.join(", ")}; nothing was sent to anyone`;
}

const PROTECTION = { "implicit-tls": " (TLS)", starttls: " (STARTTLS)", plain: "" };

function sentence(error: NodemailerError, stage: Stage, settings: SmtpSettings): string {
  const where = `${settings.host}:${settings.port}`;
  if (error instanceof RecipientRefused) return refusalSentence(where, error.refusals);
  if (error.code === "EENVELOPE" && error.command === "RCPT TO")
    return refusalSentence(where, error.rejectedErrors ?? [error]);
  if (error.code === "EAUTH")
    return `SMTP server ${where} refused the user name or password (${error.command ?? "AUTH"}): ${error.response ?? error.message}`;
  if (error.code === "ETIMEDOUT") {
    // Connected but still "connecting": the greeting (or the EHLO reply) is what never came.
    let waitingFor: string = stage === "connecting" ? "greeting" : stage;
    if (error.message === "Connection timeout") waitingFor = "connecting";
    return `SMTP server ${where} did not answer within ${settings.timeoutMs / 1000} s (${waitingFor})`;
  }
  if (error.code === "ETLS" && error.response)
    return `SMTP server ${where} did not start TLS: it answered STARTTLS with ${error.response}`;
  if (stage === "connecting")
    return `Cannot connect to SMTP server ${where}${PROTECTION[settings.security]}: ${error.message}`;
  if (error.response)
    return `SMTP server ${where} answered ${error.command ?? "a command"} with ${error.response}`;
  return `SMTP conversation with ${where} failed: ${error.message}`;
}

function oneSentence(error: unknown, stage: Stage, settings: SmtpSettings) {
  const cause: NodemailerError = error instanceof Error ? error : new Error(String(error));
  let text = sentence(cause, stage, settings);
  // The ports Supabase's hosted Edge Functions cannot reach (their limits page).
  const blocked = settings.port === 25 || settings.port === 587;
  if (blocked && (stage === "connecting" || cause.code === "ETIMEDOUT")) {
    text += ` (hosted Edge Functions cannot reach port ${settings.port}: use 465, or another port with STARTTLS such as 2587)`;
  }
  // nodemailer never quotes credentials; this keeps it so whatever its wording becomes.
  if (settings.password) text = text.split(settings.password).join("(password)");
  return new Error(text);
}

/** Sends the e-mail to every recipient in one transaction; resolves with the server's final reply. */
export async function sendMail(settings: SmtpSettings, email: StaffEmail): Promise<string> {
  const { timeoutMs } = settings;
  const message = mimeMessage(email);
  const envelope: TrackedEnvelope = message.getEnvelope();
  const bytes = await message.build();
  const connection = new SMTPConnection({
    host: settings.host,
    port: settings.port,
    secure: settings.security === "implicit-tls",
    requireTLS: settings.security === "starttls",
    ignoreTLS: settings.security === "plain",
    tls: settings.caCerts ? { ca: settings.caCerts } : undefined,
    name: "notify-meeting-request", // for EHLO, instead of asking the system for its host name
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    logger: false,
  });
  const broken = new Promise<never>((_, reject) => connection.on("error", reject));
  broken.catch(() => {});
  const step = <T>(start: (done: (error: Error | null, result?: T) => void) => void): Promise<T> =>
    Promise.race([
      new Promise<T>((resolve, reject) =>
        start((error, result) => (error ? reject(error) : resolve(result as T))),
      ),
      broken,
    ]);

  let stage: Stage = "connecting";
  try {
    await step<void>((done) => connection.connect(() => done(null)));
    if (settings.username !== undefined && settings.password !== undefined) {
      stage = "login";
      const credentials = { user: settings.username, pass: settings.password };
      await step<boolean>((done) => connection.login(credentials, done));
    }
    stage = "sending";
    const info = await step<SMTPConnection.SentMessageInfo>((done) =>
      connection.send(envelope, unlessRecipientRefused(envelope, bytes), done),
    );
    connection.quit();
    return info.response;
  } catch (error) {
    connection.close();
    throw oneSentence(error, stage, settings);
  }
}
