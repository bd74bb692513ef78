/**
 * Staff notifications as a hosted project does them: the real functions under Deno at
 * /functions/v1/, the Database Webhook (webhook-pump.ts) and pg_cron's jobs (local-cron.ts), to the
 * mail catcher unless SMTP is set. It starts after the reply: it never delays or fails an insert.
 */
import crypto from "node:crypto";

import { LocalBackendError, oneLine } from "../errors";
import { FUNCTION_NAME, functionCaller, startFunctionProcess } from "./function-process";
import { localJobs, startLocalCron, type DatabaseRunner } from "./local-cron";
import { startMailCatcher, type MailCatcher } from "./mail-catcher";
import { startWebhookPump } from "./webhook-pump";

/** The catcher's SMTP port for `npm start` (the port `supabase start` gives its own mail catcher). */
export const LOCAL_MAIL_PORT = 54325;

export const DEFAULT_TO = "Meeting requests <meetings@example-transit.test>";
export const DEFAULT_FROM = "Expo website (local) <noreply@example-transit.test>";
export const LOCAL_SITE_URL = "http://localhost:8000";
const BOOKING_FUNCTION = "book-meeting";

export interface LocalNotificationsOptions {
  /** Send to this SMTP server instead of the catcher (465: implicit TLS; other ports: STARTTLS, or plain to loopback). */
  smtp?: { host: string; port: number; username?: string; password?: string };
  /** The catcher's port (default LOCAL_MAIL_PORT; 0: any), whether any free one will do when it is taken, and its .eml folder (default: memory only). */
  catcher?: { port?: number; anyPortIfTaken?: boolean; dir?: string };
  /**
   * The functions' own settings, passed on as set: NOTIFY_EMAIL_TO and NOTIFY_EMAIL_FROM (default:
   * example addresses), NOTIFY_CHAT_WEBHOOK_URL, NOTIFY_TIME_ZONE, NOTIFY_RETRY_*_SECONDS, SITE_URL
   * (the local site: default `npm start`'s) and BOOKING_NOW (book-meeting's clock: default
   * expo-eve, the eve of an expo that is over, docs/booking.md).
   */
  functionEnv?: Record<string, string | undefined>;
  /** How often due notifications are retried; default 10 s (pg_cron's job runs every minute). */
  sweepIntervalMs?: number;
  /** How often the digest job looks; default 60 s, as pg_cron's job. */
  digestIntervalMs?: number;
  /** The site-analytics reports to send, as pg_cron does hosted (LOCAL_SITE_REPORTS); default none. */
  siteReports?: readonly ("weekly" | "daily")[];
}

/** What the notifier needs of the running backend. */
export interface NotifierHost {
  url: string;
  serviceKey: string;
  functions: Map<string, string>;
  run: DatabaseRunner;
}

export type LocalNotifier = Awaited<ReturnType<typeof startLocalNotifier>>;

async function startCatcher(options: LocalNotificationsOptions, log: (line: string) => void) {
  const wanted = options.catcher?.port ?? LOCAL_MAIL_PORT;
  const start = (port: number) =>
    startMailCatcher({
      port,
      dir: options.catcher?.dir,
      log: (line) => log(`mail caught: ${line}`),
    });
  try {
    return await start(wanted);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE" || !options.catcher?.anyPortIfTaken)
      throw error;
    const fallback = await start(0);
    log(
      `The mail catcher's usual port ${wanted} is taken; it listens on ${fallback.port} instead.`,
    );
    return fallback;
  }
}

function functionEnvironment(
  host: NotifierHost,
  options: LocalNotificationsOptions,
  secret: string,
) {
  const smtp = options.smtp;
  const env: Record<string, string | number | undefined> = {
    ...options.functionEnv,
    NOTIFY_EMAIL_TO: options.functionEnv?.NOTIFY_EMAIL_TO ?? DEFAULT_TO,
    NOTIFY_EMAIL_FROM: options.functionEnv?.NOTIFY_EMAIL_FROM ?? DEFAULT_FROM,
    SITE_URL: options.functionEnv?.SITE_URL ?? LOCAL_SITE_URL,
    BOOKING_NOW: options.functionEnv?.BOOKING_NOW ?? "expo-eve",
    NOTIFY_WEBHOOK_SECRET: secret,
    SMTP_HOST: smtp?.host,
    SMTP_PORT: smtp?.port,
    SMTP_USER: smtp?.username,
    SMTP_PASSWORD: smtp?.password,
    SUPABASE_URL: host.url,
    SUPABASE_SERVICE_ROLE_KEY: host.serviceKey,
  };
  const set = Object.entries(env).filter(([, value]) => value !== undefined && value !== "");
  return Object.fromEntries(set.map(([name, value]) => [name, String(value)]));
}

export async function startLocalNotifier(
  host: NotifierHost,
  options: LocalNotificationsOptions = {},
  log: (line: string) => void = () => {},
) {
  const secret = crypto.randomBytes(32).toString("hex");
  let catcher: MailCatcher | undefined;
  let fn: Awaited<ReturnType<typeof startFunctionProcess>> | undefined;
  let booking: typeof fn;
  const stopParts = async (): Promise<void> => {
    host.functions.delete(FUNCTION_NAME);
    host.functions.delete(BOOKING_FUNCTION);
    await Promise.all([fn?.close(), booking?.close()]);
    await catcher?.close();
  };
  try {
    if (!options.smtp) catcher = await startCatcher(options, log);
    const smtp = options.smtp ?? { host: catcher!.host, port: catcher!.port };
    const env = functionEnvironment(host, { ...options, smtp }, secret);
    // nodemailer looks the name up first, which Deno allows only for a host granted whole.
    const allowNet = [smtp.host, new URL(host.url).hostname];
    if (env.NOTIFY_CHAT_WEBHOOK_URL) allowNet.push(new URL(env.NOTIFY_CHAT_WEBHOOK_URL).host);
    const site = new URL(env.SITE_URL!).hostname;
    [fn, booking] = await Promise.all([
      startFunctionProcess(env, allowNet, (line) => log(`notify: ${line}`)),
      startFunctionProcess(
        env,
        [...allowNet, site],
        (line) => log(`book: ${line}`),
        BOOKING_FUNCTION,
      ),
    ]);
    host.functions.set(FUNCTION_NAME, fn.url);
    host.functions.set(BOOKING_FUNCTION, booking.url);
  } catch (error) {
    await stopParts();
    throw new LocalBackendError(
      `Staff notifications could not start (${oneLine(error)}). Free that port or set LOCAL_MAIL_PORT to another one, ` +
        "or set LOCAL_NOTIFICATIONS=off to run without staff notifications.",
    );
  }
  const caller = functionCaller(`${host.url}/functions/v1/${FUNCTION_NAME}`, secret, log);
  const webhooks = await startWebhookPump(host.run, caller, log);
  const cron = startLocalCron(
    localJobs(host.run, caller, {
      sweepIntervalMs: options.sweepIntervalMs ?? 10_000,
      digestIntervalMs: options.digestIntervalMs ?? 60_000,
      siteReports: options.siteReports ?? [],
    }),
    log,
  );
  /** Resolves when every call to the function made so far has finished. */
  const idle = async (): Promise<void> => {
    do {
      while (webhooks.busy()) await new Promise((resolve) => setTimeout(resolve, 5));
      await caller.idle();
    } while (webhooks.busy());
  };
  const where = catcher
    ? `the local mail catcher on smtp://${catcher.host}:${catcher.port} (nothing leaves this machine)` +
      (catcher.dir
        ? `; each e-mail is saved as an .eml file in ${catcher.dir} (open it with any mail program)`
        : "")
    : `the SMTP server ${options.smtp!.host}:${options.smtp!.port}`;
  log(`Staff notifications go to ${where}.`);

  let closed: Promise<void> | undefined;
  return {
    catcher,
    /** Call after each write (insert, confirmation): posts the webhook for every request newly due. */
    afterWrite: () => webhooks.poke(),
    idle,
    /** Stops the jobs, lets the calls in flight finish (3 s at most), stops the function and catcher. */
    close: () =>
      (closed ??= (async () => {
        webhooks.stop();
        // A stopping backend does not wait for a long retry sweep: the calls still running after
        // 3 s are aborted, and their requests stay pending, retried at the next start.
        const grace = new Promise((resolve) => setTimeout(resolve, 3_000).unref());
        await Promise.race([Promise.all([cron.close(), idle()]), grace]);
        caller.abort();
        await cron.close();
        await idle();
        await stopParts();
      })()),
  };
}
