/**
 * The function's settings, from its environment (Supabase secrets hosted; the local backend
 * passes them). Every problem is reported at once, by variable name, never with a secret.
 */
import { parseMailbox, type Mailbox } from "./mail.ts";
import type { SmtpSecurity } from "./smtp.ts";

export type NotifyConfig = Extract<ReturnType<typeof loadConfig>, { ok: true }>["config"];

/** The shortest shared secret accepted (`openssl rand -hex 32` gives 64 characters). */
const MIN_SECRET_LENGTH = 32;

export function isLoopbackHost(host: string): boolean {
  return /^(127\.\d+\.\d+\.\d+|::1|\[::1\]|localhost)$/i.test(host);
}

export function loadConfig(env: (name: string) => string | undefined) {
  const problems: string[] = [];
  const get = (name: string): string | undefined => env(name)?.trim() || undefined;
  const required = (name: string, what: string): string => {
    const value = get(name);
    if (value === undefined) problems.push(`${name} is not set (${what})`);
    return value ?? "";
  };
  const positive = (name: string, fallback: number): number => {
    const value = Number(get(name) ?? fallback);
    if (Number.isFinite(value) && value > 0) return value;
    problems.push(`${name} must be a positive number`);
    return fallback;
  };
  const mailboxes = (name: string, text: string): Mailbox[] =>
    text.split(",").flatMap((item) => {
      const mailbox = parseMailbox(item);
      if (item.trim() && !mailbox) {
        const entry = JSON.stringify(item.trim());
        problems.push(`${name} has an entry that is not an e-mail address: ${entry}`);
      }
      return mailbox ? [mailbox] : [];
    });

  const webhookSecret = required("NOTIFY_WEBHOOK_SECRET", "the shared secret the webhook sends");
  if (webhookSecret && webhookSecret.length < MIN_SECRET_LENGTH) {
    problems.push(
      `NOTIFY_WEBHOOK_SECRET must be at least ${MIN_SECRET_LENGTH} characters (e.g. openssl rand -hex 32)`,
    );
  }

  const toText = required("NOTIFY_EMAIL_TO", "who gets the e-mails, comma-separated");
  const to = mailboxes("NOTIFY_EMAIL_TO", toText);
  if (toText && to.length === 0 && problems.length === 0)
    problems.push("NOTIFY_EMAIL_TO names no address");
  const reportTo = mailboxes("NOTIFY_REPORT_TO", get("NOTIFY_REPORT_TO") ?? "");

  const fromText = required("NOTIFY_EMAIL_FROM", "the sender your SMTP provider lets you use");
  const from = fromText ? parseMailbox(fromText) : undefined;
  if (fromText && !from)
    problems.push("NOTIFY_EMAIL_FROM is not an e-mail address (`Name <address>` or `address`)");

  const host = required("SMTP_HOST", "your SMTP provider's server, e.g. smtp.resend.com");
  const port = positive("SMTP_PORT", 465);
  // 465 is implicit TLS; any other port must offer STARTTLS, except a catcher on this machine.
  const security: SmtpSecurity =
    port === 465 ? "implicit-tls" : isLoopbackHost(host) ? "plain" : "starttls";
  const username = get("SMTP_USER");
  const password = get("SMTP_PASSWORD");
  if ((username === undefined) !== (password === undefined))
    problems.push("SMTP_USER and SMTP_PASSWORD must be set together");

  const chatWebhookUrl = get("NOTIFY_CHAT_WEBHOOK_URL");
  if (chatWebhookUrl !== undefined) {
    const url = URL.parse(chatWebhookUrl);
    const loopbackHttp = url?.protocol === "http:" && isLoopbackHost(url.hostname);
    if (url?.protocol !== "https:" && !loopbackHttp)
      problems.push("NOTIFY_CHAT_WEBHOOK_URL must be an https:// URL");
  }

  const timeZone = get("NOTIFY_TIME_ZONE") ?? "UTC";
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
  } catch {
    problems.push(
      `NOTIFY_TIME_ZONE is not a time zone name: ${JSON.stringify(timeZone)} (e.g. America/Chicago)`,
    );
  }

  // The site's address: staff e-mails link to its booking page (docs/booking.md); optional.
  const siteUrl = get("SITE_URL")?.replace(/\/+$/, "");
  if (siteUrl !== undefined && !/^https?:\/\/[^/]+/.test(siteUrl))
    problems.push("SITE_URL must be the site's address, e.g. https://expo.example.com");

  const supabaseUrl = required("SUPABASE_URL", "set by Supabase for every Edge Function");
  const serviceKey = required("SUPABASE_SERVICE_ROLE_KEY", "set by Supabase for every function");
  // A failed e-mail is tried again after `baseSeconds`, doubling, at most `maxSeconds` apart.
  const retry = {
    baseSeconds: positive("NOTIFY_RETRY_BASE_SECONDS", 30),
    maxSeconds: positive("NOTIFY_RETRY_MAX_SECONDS", 30 * 60),
  };

  if (problems.length > 0 || !from) return { ok: false as const, problems };
  return {
    ok: true as const,
    config: {
      /** What the webhook sends in X-Webhook-Secret. */
      webhookSecret,
      smtp: { host, port, security, username, password, timeoutMs: 15_000 },
      from,
      to,
      /** Who gets the site-analytics report (NOTIFY_REPORT_TO; default NOTIFY_EMAIL_TO). */
      reportTo: reportTo.length > 0 ? reportTo : to,
      chatWebhookUrl,
      timeZone,
      siteUrl,
      /** Where the delivery state lives: the project's REST API, with the service role. */
      supabaseUrl: supabaseUrl.replace(/\/+$/, ""),
      serviceKey,
      retry,
      // Longer than the slowest attempt can take (four 15 s SMTP steps, a 10 s chat post).
      leaseSeconds: 120,
      /** How many due notifications one call retries at most. */
      sweepBatch: 10,
    },
  };
}
