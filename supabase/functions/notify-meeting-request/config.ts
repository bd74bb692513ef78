/**
 * The function's settings, from its environment (Supabase secrets on a hosted project; the
 * local backend passes them to the Deno process it starts). Every problem is reported at
 * once, by variable name, never with a value.
 */
import { parseMailbox, type Mailbox } from "./mime.ts";
import { DEFAULT_RETRY, type RetryPolicy } from "./retry.ts";
import type { SmtpSecurity, SmtpSettings } from "./smtp.ts";

export interface NotifyConfig {
  /** What the webhook sends in X-Webhook-Secret. */
  webhookSecret: string;
  smtp: SmtpSettings;
  from: Mailbox;
  to: Mailbox[];
  /** Who gets the site-analytics report (NOTIFY_REPORT_TO; default NOTIFY_EMAIL_TO). */
  reportTo: Mailbox[];
  chatWebhookUrl: string | undefined;
  timeZone: string;
  /** Where the delivery state lives: the project's REST API, with the service role. */
  supabaseUrl: string;
  serviceKey: string;
  retry: RetryPolicy;
  leaseSeconds: number;
  /** How many due notifications one call retries at most. */
  sweepBatch: number;
}

export type ConfigResult = { ok: true; config: NotifyConfig } | { ok: false; problems: string[] };

/** The shortest shared secret accepted (`openssl rand -hex 32` gives 64 characters). */
export const MIN_SECRET_LENGTH = 32;

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "::1", "[::1]", "localhost"]);

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTS.has(host.toLowerCase()) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

function positiveNumber(
  value: string | undefined,
  fallback: number,
  name: string,
  problems: string[],
): number {
  if (value === undefined || value.trim() === "") return fallback;
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) {
    problems.push(`${name} must be a positive number of seconds`);
    return fallback;
  }
  return number;
}

export function loadConfig(env: (name: string) => string | undefined): ConfigResult {
  const problems: string[] = [];
  const get = (name: string): string | undefined => {
    const value = env(name)?.trim();
    return value === "" ? undefined : value;
  };
  const required = (name: string, what: string): string => {
    const value = get(name);
    if (value === undefined) problems.push(`${name} is not set (${what})`);
    return value ?? "";
  };

  const webhookSecret = required(
    "NOTIFY_WEBHOOK_SECRET",
    "the shared secret the database webhook sends",
  );
  if (webhookSecret && webhookSecret.length < MIN_SECRET_LENGTH) {
    problems.push(
      `NOTIFY_WEBHOOK_SECRET must be at least ${MIN_SECRET_LENGTH} characters (e.g. openssl rand -hex 32)`,
    );
  }

  const toText = required("NOTIFY_EMAIL_TO", "who gets the e-mails, comma-separated");
  const to: Mailbox[] = [];
  for (const item of toText
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)) {
    const mailbox = parseMailbox(item);
    if (mailbox) to.push(mailbox);
    else
      problems.push(
        `NOTIFY_EMAIL_TO has an entry that is not an e-mail address: ${JSON.stringify(item)}`,
      );
  }
  if (toText && to.length === 0 && problems.length === 0)
    problems.push("NOTIFY_EMAIL_TO names no address");

  const reportTo: Mailbox[] = [];
  for (const item of (get("NOTIFY_REPORT_TO") ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)) {
    const mailbox = parseMailbox(item);
    if (mailbox) reportTo.push(mailbox);
    else
      problems.push(
        `NOTIFY_REPORT_TO has an entry that is not an e-mail address: ${JSON.stringify(item)}`,
      );
  }

  const fromText = required(
    "NOTIFY_EMAIL_FROM",
    "the sender, an address your SMTP provider lets you send from",
  );
  const from = fromText ? parseMailbox(fromText) : undefined;
  if (fromText && !from)
    problems.push("NOTIFY_EMAIL_FROM is not an e-mail address (`Name <address>` or `address`)");

  const host = required("SMTP_HOST", "your SMTP provider's server, e.g. smtp.resend.com");
  const port = positiveNumber(get("SMTP_PORT"), 465, "SMTP_PORT", problems);
  // 465 is implicit TLS; any other port must offer STARTTLS, except a catcher on this machine.
  const security: SmtpSecurity =
    port === 465 ? "implicit-tls" : isLoopbackHost(host) ? "plain" : "starttls";
  const username = get("SMTP_USER");
  const password = get("SMTP_PASSWORD");
  if ((username === undefined) !== (password === undefined))
    problems.push("SMTP_USER and SMTP_PASSWORD must be set together");

  const chatWebhookUrl = get("NOTIFY_CHAT_WEBHOOK_URL");
  if (chatWebhookUrl !== undefined) {
    let url: URL | undefined;
    try {
      url = new URL(chatWebhookUrl);
    } catch {
      // reported below
    }
    if (
      !url ||
      (url.protocol !== "https:" && !(url.protocol === "http:" && isLoopbackHost(url.hostname)))
    ) {
      problems.push("NOTIFY_CHAT_WEBHOOK_URL must be an https:// URL");
    }
  }

  const timeZone = get("NOTIFY_TIME_ZONE") ?? "UTC";
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
  } catch {
    problems.push(
      `NOTIFY_TIME_ZONE is not a time zone name: ${JSON.stringify(timeZone)} (e.g. America/Chicago)`,
    );
  }

  const supabaseUrl = required("SUPABASE_URL", "set by Supabase for every Edge Function");
  const serviceKey = required(
    "SUPABASE_SERVICE_ROLE_KEY",
    "set by Supabase for every Edge Function",
  );

  const retry: RetryPolicy = {
    baseSeconds: positiveNumber(
      get("NOTIFY_RETRY_BASE_SECONDS"),
      DEFAULT_RETRY.baseSeconds,
      "NOTIFY_RETRY_BASE_SECONDS",
      problems,
    ),
    maxSeconds: positiveNumber(
      get("NOTIFY_RETRY_MAX_SECONDS"),
      DEFAULT_RETRY.maxSeconds,
      "NOTIFY_RETRY_MAX_SECONDS",
      problems,
    ),
  };

  if (problems.length > 0 || !from) return { ok: false, problems };
  return {
    ok: true,
    config: {
      webhookSecret,
      smtp: { host, port, security, username, password, timeoutMs: 15_000 },
      from,
      to,
      reportTo: reportTo.length > 0 ? reportTo : to,
      chatWebhookUrl,
      timeZone,
      supabaseUrl: supabaseUrl.replace(/\/+$/, ""),
      serviceKey,
      retry,
      // Longer than the slowest attempt can take (four 15 s SMTP steps, a 10 s chat post).
      leaseSeconds: 120,
      sweepBatch: 10,
    },
  };
}
