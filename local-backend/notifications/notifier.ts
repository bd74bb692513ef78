/**
 * Staff notifications for the embedded local backend, the way a hosted project does them:
 * after each stored request, the Database Webhook payload (public.contact_webhook_payload, the
 * hosted trigger's own definition) is posted to the real notify-meeting-request function
 * running under Deno; a timer plays pg_cron's part and asks it to retry what is due. E-mails
 * go to the local mail catcher unless another SMTP server is configured. Nothing here can
 * delay or fail an insert: dispatching starts after the insert's reply and its errors are
 * only logged (the request stays pending in the database and is retried).
 */
import crypto from "node:crypto";

import { startFunctionProcess, type FunctionProcess } from "./function-process";
import { startMailCatcher, type MailCatcher } from "./mail-catcher";
import { startServiceApi, type DatabaseRunner, type ServiceApi } from "./service-api";

/** How long a stopping backend lets calls to the function finish before it aborts them. */
const CLOSE_GRACE_MS = 3_000;

/** The catcher's SMTP port for `npm start` (the port `supabase start` gives its own mail catcher). */
export const LOCAL_MAIL_PORT = 54325;

export interface LocalNotificationsOptions {
  /** Send to this SMTP server instead of starting the catcher (plain SMTP: loopback only; 465: TLS). */
  smtp?: { host: string; port: number; username?: string; password?: string };
  /** The built-in catcher: port (default LOCAL_MAIL_PORT; 0 = any) and .eml folder (default: memory only). */
  catcher?: { port?: number; dir?: string };
  /** NOTIFY_EMAIL_TO / NOTIFY_EMAIL_FROM; defaults name example addresses (the catcher relays nothing). */
  to?: string;
  from?: string;
  chatWebhookUrl?: string;
  timeZone?: string;
  retryBaseSeconds?: number;
  retryMaxSeconds?: number;
  /** How often due notifications are retried; default 10 s (pg_cron's job runs every minute). */
  sweepIntervalMs?: number;
  /** The site-analytics reports to send, as pg_cron does on a hosted project (LOCAL_SITE_REPORTS); default none. */
  siteReports?: readonly ("weekly" | "daily")[];
  log?: (line: string) => void;
}

export interface LocalNotifier {
  catcher: MailCatcher | undefined;
  /** One line for the terminal: where the e-mails go and where to look. */
  summary: string;
  /** Call after each stored request: posts the webhook for every row not yet posted. */
  afterInsert(): void;
  /** Resolves when every call to the function made so far has finished. */
  idle(): Promise<void>;
  /** Stops the timer, waits for calls in flight, stops the function and the catcher. */
  close(): Promise<void>;
}

export const DEFAULT_TO = "Meeting requests <meetings@example-transit.test>";
export const DEFAULT_FROM = "Expo website (local) <noreply@example-transit.test>";

export async function startLocalNotifier(run: DatabaseRunner, options: LocalNotificationsOptions = {}): Promise<LocalNotifier> {
  const log = options.log ?? (() => {});
  const secret = crypto.randomBytes(32).toString("hex");
  const started: { close(): Promise<void> }[] = [];
  const stopStarted = async (): Promise<void> => {
    for (const part of started.reverse()) await part.close().catch(() => {});
  };

  let catcher: MailCatcher | undefined;
  let serviceApi: ServiceApi;
  let fn: FunctionProcess;
  try {
    if (!options.smtp) {
      catcher = await startMailCatcher({
        port: options.catcher?.port ?? LOCAL_MAIL_PORT,
        dir: options.catcher?.dir,
        log: (line) => log(`mail caught: ${line}`),
      });
      started.push(catcher);
    }
    const smtp = options.smtp ?? { host: catcher!.host, port: catcher!.port };
    serviceApi = await startServiceApi(run);
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
    if (options.retryBaseSeconds !== undefined) env.NOTIFY_RETRY_BASE_SECONDS = String(options.retryBaseSeconds);
    if (options.retryMaxSeconds !== undefined) env.NOTIFY_RETRY_MAX_SECONDS = String(options.retryMaxSeconds);
    const allowNet = [`${smtp.host}:${smtp.port}`];
    if (options.chatWebhookUrl) allowNet.push(new URL(options.chatWebhookUrl).host);
    fn = await startFunctionProcess({ env, allowNet, log: (line) => log(`notify: ${line}`) });
    started.push(fn);
  } catch (error) {
    await stopStarted();
    throw error;
  }

  const inflight = new Set<Promise<void>>();
  let closing = false;
  // Aborts the calls still running a moment after close() starts: a stopping backend must not wait
  // for a long retry sweep. Their requests stay pending in the database and are retried next start.
  const stopping = new AbortController();

  function post(body: string, what: string): void {
    const call = (async () => {
      try {
        const response = await fetch(fn.url, {
          method: "POST",
          headers: { "Content-Type": "application/json", "X-Webhook-Secret": secret },
          body,
          signal: AbortSignal.any([AbortSignal.timeout(120_000), stopping.signal]),
        });
        const answer = await response.text();
        if (!response.ok) log(`notify: ${what} answered HTTP ${response.status} ${answer.slice(0, 200)}`);
      } catch (error) {
        log(`notify: ${what} did not reach the function (${error instanceof Error ? error.message : String(error)}); the request stays pending and is retried`);
      }
    })();
    inflight.add(call);
    void call.finally(() => inflight.delete(call));
  }

  // Rows stored before this start are not posted again: the first sweep picks up any pending ones.
  let highWater = Number(
    (await run((db) => db.query<{ max: string }>("select coalesce(max(id), 0)::text as max from public.contacts"))).rows[0]!.max,
  );
  let pumping = false;
  let again = false;
  async function pump(): Promise<void> {
    if (pumping) {
      again = true;
      return;
    }
    pumping = true;
    try {
      do {
        again = false;
        const rows = await run((db) =>
          db.query<{ id: string; payload: string }>(
            "select c.id::text as id, public.contact_webhook_payload(c)::text as payload from public.contacts c where c.id > $1 order by c.id",
            [highWater],
          ),
        );
        for (const row of rows.rows) {
          highWater = Math.max(highWater, Number(row.id));
          post(row.payload, `webhook for request #${row.id}`);
        }
      } while (again && !closing);
    } catch (error) {
      log(`notify: could not read new requests (${error instanceof Error ? error.message : String(error)}); the next sweep retries them`);
    } finally {
      pumping = false;
    }
  }

  let sweeping = false;
  async function sweep(): Promise<void> {
    if (sweeping || closing) return;
    sweeping = true;
    try {
      const due = await run((db) => db.query<{ due: boolean }>("select public.has_due_contact_notifications() as due"));
      if (due.rows[0]?.due) post('{"type":"SWEEP"}', "retry sweep");
    } catch (error) {
      log(`notify: retry sweep skipped (${error instanceof Error ? error.message : String(error)})`);
    } finally {
      sweeping = false;
    }
  }
  const timer = setInterval(() => void sweep(), options.sweepIntervalMs ?? 10_000);
  timer.unref();
  void sweep();
  const reportTimer = startSiteReportJob(run, options.siteReports ?? [], post, log);

  const idle = async (): Promise<void> => {
    while (pumping || inflight.size > 0) {
      await Promise.allSettled([...inflight]);
      if (pumping) await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };

  const where = catcher
    ? `the local mail catcher on smtp://${catcher.host}:${catcher.port} (nothing leaves this machine)${
        catcher.dir ? `; each e-mail is saved as an .eml file in ${catcher.dir} (open it with any mail program)` : ""
      }`
    : `the SMTP server ${options.smtp!.host}:${options.smtp!.port}`;

  let closed: Promise<void> | undefined;
  return {
    catcher,
    summary: `Staff notifications go to ${where}.`,
    afterInsert() {
      if (!closing) void pump();
    },
    idle,
    close() {
      closed ??= (async () => {
        closing = true;
        clearInterval(timer);
        clearInterval(reportTimer);
        await Promise.race([idle(), new Promise((resolve) => setTimeout(resolve, CLOSE_GRACE_MS))]);
        stopping.abort();
        await idle();
        await stopStarted();
      })();
      return closed;
    },
  };
}

/**
 * pg_cron's site-analytics report job (supabase/migrations/20261124200000_site_analytics.sql):
 * every hour, and once at start, the reports of `kinds` whose period has ended and that were not
 * sent yet (public.claim_site_report hands each period out once) are posted to the function.
 */
function startSiteReportJob(
  run: DatabaseRunner,
  kinds: readonly string[],
  post: (body: string, what: string) => void,
  log: (line: string) => void,
): ReturnType<typeof setInterval> | undefined {
  if (kinds.length === 0) return undefined;
  const send = async () => {
    for (const kind of kinds) {
      try {
        const result = await run((db) => db.query<{ body: string | null }>("select public.claim_site_report($1)::text as body", [kind]));
        if (result.rows[0]?.body) post(result.rows[0].body, `${kind} site report`);
      } catch (error) {
        log(`notify: ${kind} site report skipped (${error instanceof Error ? error.message : String(error)})`);
      }
    }
  };
  const timer = setInterval(() => void send(), 3_600_000);
  timer.unref();
  void send();
  return timer;
}
