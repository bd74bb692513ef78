/**
 * Staff notifications for the embedded local backend, the way a hosted project does them:
 * after each write, the Database Webhook payload (public.contact_webhook_payload, the hosted
 * trigger's own definition) of each request due one by one is posted to the real
 * notify-meeting-request function running under Deno (webhook-pump.ts); a stand-in for pg_cron
 * (local-cron.ts) runs the hosted jobs' twins (jobs.ts: the retry sweep, the digest). E-mails
 * go to the local mail catcher unless another SMTP server is configured. Nothing here can
 * delay or fail an insert: dispatching starts after the insert's reply and its errors are
 * only logged (the request stays pending in the database and is retried).
 */
import crypto from "node:crypto";

import { createFunctionCaller } from "./function-caller";
import { startFunctionProcess } from "./function-process";
import { localJobs } from "./jobs";
import { startLocalCron } from "./local-cron";
import { startMailCatcher, type MailCatcher } from "./mail-catcher";
import { startServiceApi, type DatabaseRunner } from "./service-api";
import { startWebhookPump } from "./webhook-pump";

/** How long a stopping backend lets calls to the function finish before it aborts them. */
const CLOSE_GRACE_MS = 3_000;

/** The catcher's SMTP port for `npm start` (the port `supabase start` gives its own mail catcher). */
export const LOCAL_MAIL_PORT = 54325;

export interface LocalNotificationsOptions {
  /** Send to this SMTP server instead of starting the catcher (465: implicit TLS; another port: STARTTLS, or plain to a loopback host). */
  smtp?: { host: string; port: number; username?: string; password?: string };
  /**
   * The built-in catcher: port (default LOCAL_MAIL_PORT; 0 = any), whether any free port will do
   * when that one is taken, and the .eml folder (default: memory only).
   */
  catcher?: { port?: number; anyPortIfTaken?: boolean; dir?: string };
  /** NOTIFY_EMAIL_TO / NOTIFY_EMAIL_FROM; defaults name example addresses (the catcher relays nothing). */
  to?: string;
  from?: string;
  chatWebhookUrl?: string;
  timeZone?: string;
  retryBaseSeconds?: number;
  retryMaxSeconds?: number;
  /** How often due notifications are retried; default 10 s (pg_cron's job runs every minute). */
  sweepIntervalMs?: number;
  /**
   * How often the digest job looks for held requests; default 60 s, as pg_cron's job. The least
   * time between two digests is the database's (private.screening_settings.digest_interval_seconds).
   */
  digestIntervalMs?: number;
  /** The site-analytics reports to send, as pg_cron does on a hosted project (LOCAL_SITE_REPORTS); default none. */
  siteReports?: readonly ("weekly" | "daily")[];
  log?: (line: string) => void;
}

export interface LocalNotifier {
  catcher: MailCatcher | undefined;
  /** One line for the terminal: where the e-mails go and where to look. */
  summary: string;
  /** Call after each write (insert, confirmation): posts the webhook for every request newly due. */
  afterWrite(): void;
  /** Resolves when every call to the function made so far has finished. */
  idle(): Promise<void>;
  /** Stops the timer, waits for calls in flight, stops the function and the catcher. */
  close(): Promise<void>;
}

export const DEFAULT_TO = "Meeting requests <meetings@example-transit.test>";
export const DEFAULT_FROM = "Expo website (local) <noreply@example-transit.test>";

/** The parts a hosted project has on its own: the mail server, the REST API for the service role, the function. */
async function startParts(
  run: DatabaseRunner,
  options: LocalNotificationsOptions,
  secret: string,
  log: (line: string) => void,
) {
  const started: { close(): Promise<void> }[] = [];
  const stopStarted = async (): Promise<void> => {
    for (const part of started.reverse()) await part.close().catch(() => {});
  };
  try {
    let catcher: MailCatcher | undefined;
    if (!options.smtp) {
      const catcherOptions = {
        dir: options.catcher?.dir,
        log: (line: string) => log(`mail caught: ${line}`),
      };
      const wanted = options.catcher?.port ?? LOCAL_MAIL_PORT;
      catcher = await startMailCatcher({ ...catcherOptions, port: wanted }).catch(
        async (error: NodeJS.ErrnoException) => {
          if (error.code !== "EADDRINUSE" || !options.catcher?.anyPortIfTaken) throw error;
          const fallback = await startMailCatcher({ ...catcherOptions, port: 0 });
          log(
            `The mail catcher's usual port ${wanted} is taken; it listens on ${fallback.port} instead.`,
          );
          return fallback;
        },
      );
      started.push(catcher);
    }
    const smtp = options.smtp ?? { host: catcher!.host, port: catcher!.port };
    const serviceApi = await startServiceApi(run);
    started.push(serviceApi);
    const env: Record<string, string> = {
      NOTIFY_WEBHOOK_SECRET: secret,
      NOTIFY_EMAIL_TO: options.to ?? DEFAULT_TO,
      NOTIFY_EMAIL_FROM: options.from ?? DEFAULT_FROM,
      SMTP_HOST: smtp.host,
      SMTP_PORT: String(smtp.port),
      SUPABASE_URL: serviceApi.url,
      SUPABASE_SERVICE_ROLE_KEY: serviceApi.serviceKey,
    };
    if (options.smtp?.username !== undefined) env.SMTP_USER = options.smtp.username;
    if (options.smtp?.password !== undefined) env.SMTP_PASSWORD = options.smtp.password;
    if (options.chatWebhookUrl) env.NOTIFY_CHAT_WEBHOOK_URL = options.chatWebhookUrl;
    if (options.timeZone) env.NOTIFY_TIME_ZONE = options.timeZone;
    if (options.retryBaseSeconds !== undefined)
      env.NOTIFY_RETRY_BASE_SECONDS = String(options.retryBaseSeconds);
    if (options.retryMaxSeconds !== undefined)
      env.NOTIFY_RETRY_MAX_SECONDS = String(options.retryMaxSeconds);
    // The host without a port: nodemailer looks the name up first (getaddrinfo), which Deno
    // allows only for a host granted whole.
    const allowNet = [smtp.host];
    if (options.chatWebhookUrl) allowNet.push(new URL(options.chatWebhookUrl).host);
    const fn = await startFunctionProcess({ env, allowNet, log: (line) => log(`notify: ${line}`) });
    started.push(fn);
    return { catcher, fn, stopStarted };
  } catch (error) {
    await stopStarted();
    throw error;
  }
}

export async function startLocalNotifier(
  run: DatabaseRunner,
  options: LocalNotificationsOptions = {},
): Promise<LocalNotifier> {
  const log = options.log ?? (() => {});
  const secret = crypto.randomBytes(32).toString("hex");
  const { catcher, fn, stopStarted } = await startParts(run, options, secret, log);
  const caller = createFunctionCaller(fn.url, secret, log);
  const webhooks = await startWebhookPump(run, caller, log).catch(async (error: unknown) => {
    await stopStarted();
    throw error;
  });
  const cron = startLocalCron(
    localJobs(run, caller, {
      sweepIntervalMs: options.sweepIntervalMs ?? 10_000,
      digestIntervalMs: options.digestIntervalMs ?? 60_000,
      siteReports: options.siteReports ?? [],
    }),
    log,
  );

  const idle = async (): Promise<void> => {
    while (webhooks.busy()) await new Promise((resolve) => setTimeout(resolve, 5));
    await caller.idle();
    while (webhooks.busy()) await new Promise((resolve) => setTimeout(resolve, 5));
    await caller.idle();
  };

  const where = catcher
    ? `the local mail catcher on smtp://${catcher.host}:${catcher.port} (nothing leaves this machine)${
        catcher.dir
          ? `; each e-mail is saved as an .eml file in ${catcher.dir} (open it with any mail program)`
          : ""
      }`
    : `the SMTP server ${options.smtp!.host}:${options.smtp!.port}`;

  let closed: Promise<void> | undefined;
  return {
    catcher,
    summary: `Staff notifications go to ${where}.`,
    afterWrite() {
      webhooks.poke();
    },
    idle,
    close() {
      closed ??= (async () => {
        webhooks.stop();
        // Aborts the calls still running a moment after close() starts: a stopping backend must not wait
        // for a long retry sweep. Their requests stay pending in the database and are retried next start.
        await Promise.race([
          Promise.all([cron.close(), idle()]),
          new Promise((resolve) => setTimeout(resolve, CLOSE_GRACE_MS)),
        ]);
        caller.abort();
        await cron.close();
        await idle();
        await stopStarted();
      })();
      return closed;
    },
  };
}
