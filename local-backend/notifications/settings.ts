/**
 * The local notification settings from the environment (.env or the shell), for `npm start`
 * and `npm run backend`. With no settings at all, e-mails go to the catcher on 54325 and are
 * saved in .data/local-mail/ (next to the data folder); SMTP_HOST sends them to a real server instead (what the hosted
 * function would do); LOCAL_NOTIFICATIONS=off turns the whole thing off.
 */
import fs from "node:fs";
import path from "node:path";

import dotenv from "dotenv";

import { projectRoot } from "./project-root";
import { LOCAL_MAIL_PORT, type LocalNotificationsOptions } from "./notifier";

export class NotificationSettingsError extends Error {
  override name = "NotificationSettingsError";
}

/** Server-side secrets: a GATSBY_ copy of any of them would be published with the site. */
export const SECRET_VARIABLES = [
  "SMTP_PASSWORD",
  "NOTIFY_WEBHOOK_SECRET",
  "NOTIFY_CHAT_WEBHOOK_URL",
  "SUPABASE_SERVICE_ROLE_KEY",
] as const;

function port(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined || value.trim() === "") return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0 || number > 65_535) {
    throw new NotificationSettingsError(
      `${name} must be a port number (0–65535), not ${JSON.stringify(value)}.`,
    );
  }
  return number;
}

/** .data/local-mail beside the default .data/local-supabase; `<folder>-mail` beside any other. */
export function mailDirBeside(dataDir: string): string {
  const name = path.basename(dataDir);
  return path.join(
    path.dirname(dataDir),
    name === "local-supabase" ? "local-mail" : `${name}-mail`,
  );
}

function seconds(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) {
    throw new NotificationSettingsError(
      `${name} must be a positive number of seconds, not ${JSON.stringify(value)}.`,
    );
  }
  return number;
}

export interface BackendPlace {
  /** The backend's data folder; undefined (in memory) keeps caught e-mails in memory only. */
  dataDir: string | undefined;
  /** The backend's port: 0 (any free port, as tests use) gives the catcher any free port too. */
  port: number;
}

/**
 * undefined when notifications are off. Relative LOCAL_MAIL_DIR values are relative to
 * `root` (the project); by default e-mails are saved next to the data folder (mailDirBeside).
 */
export function notificationOptionsFromEnv(
  env: NodeJS.ProcessEnv,
  root: string,
  backend: BackendPlace,
): LocalNotificationsOptions | undefined {
  for (const name of SECRET_VARIABLES) {
    if (env[`GATSBY_${name}`] !== undefined) {
      throw new NotificationSettingsError(
        `GATSBY_${name} is set: variables starting with GATSBY_ are published with the site. Rename it to ${name} (server-side only).`,
      );
    }
  }
  const switchedOff = (env.LOCAL_NOTIFICATIONS ?? "").trim().toLowerCase();
  if (["off", "false", "0", "no"].includes(switchedOff)) return undefined;
  const value = (name: string): string | undefined => {
    const text = env[name]?.trim();
    return text ? text : undefined;
  };
  const smtpHost = value("SMTP_HOST");
  const options: LocalNotificationsOptions = {
    to: value("NOTIFY_EMAIL_TO"),
    from: value("NOTIFY_EMAIL_FROM"),
    chatWebhookUrl: value("NOTIFY_CHAT_WEBHOOK_URL"),
    timeZone: value("NOTIFY_TIME_ZONE"),
  };
  // Passed to the function, which applies its own defaults when they are absent.
  const retryBaseSeconds = seconds(value("NOTIFY_RETRY_BASE_SECONDS"), "NOTIFY_RETRY_BASE_SECONDS");
  const retryMaxSeconds = seconds(value("NOTIFY_RETRY_MAX_SECONDS"), "NOTIFY_RETRY_MAX_SECONDS");
  if (retryBaseSeconds !== undefined) options.retryBaseSeconds = retryBaseSeconds;
  if (retryMaxSeconds !== undefined) options.retryMaxSeconds = retryMaxSeconds;
  const siteReports = value("LOCAL_SITE_REPORTS")
    ?.split(",")
    .map((kind) => kind.trim());
  if (siteReports) {
    if (!siteReports.every((kind) => kind === "weekly" || kind === "daily")) {
      throw new NotificationSettingsError(
        `LOCAL_SITE_REPORTS lists weekly and/or daily, not ${JSON.stringify(value("LOCAL_SITE_REPORTS"))}.`,
      );
    }
    options.siteReports = siteReports as ("weekly" | "daily")[];
  }
  if (smtpHost) {
    options.smtp = {
      host: smtpHost,
      port: port(value("SMTP_PORT"), "SMTP_PORT", 465),
      username: value("SMTP_USER"),
      password: value("SMTP_PASSWORD"),
    };
  } else {
    const dir = value("LOCAL_MAIL_DIR");
    const besideData =
      backend.dataDir === undefined ? undefined : mailDirBeside(path.resolve(backend.dataDir));
    const mailPort = value("LOCAL_MAIL_PORT");
    options.catcher = {
      port: port(mailPort, "LOCAL_MAIL_PORT", backend.port === 0 ? 0 : LOCAL_MAIL_PORT),
      // The usual port taken (another project's catcher): any free one does; a port asked for does not.
      anyPortIfTaken: mailPort === undefined,
      dir: backend.dataDir === undefined ? undefined : dir ? path.resolve(root, dir) : besideData,
    };
  }
  return options;
}

/** The environment as `npm start` sees it: the shell's variables over `.env.development` and `.env`. */
export function localEnvironment(root: string = projectRoot()): NodeJS.ProcessEnv {
  const read = (name: string): Record<string, string> => {
    try {
      return dotenv.parse(fs.readFileSync(path.join(root, name)));
    } catch {
      return {};
    }
  };
  return { ...read(".env"), ...read(".env.development"), ...process.env };
}

/** The notification settings for a backend started from the command line or `npm start`. */
export function localNotificationOptions(
  backend: BackendPlace,
): LocalNotificationsOptions | undefined {
  const root = projectRoot();
  return notificationOptionsFromEnv(localEnvironment(root), root, backend);
}
