/**
 * The local notification settings from the environment (.env or the shell), for `npm start`
 * and `npm run backend`. With no settings at all, e-mails go to the catcher on 54325 and are
 * saved in .data/local-mail/; SMTP_HOST sends them to a real server instead (what the hosted
 * function would do); LOCAL_NOTIFICATIONS=off turns the whole thing off.
 */
import path from "node:path";

import { LOCAL_MAIL_PORT, type LocalNotificationsOptions } from "./notifier";

export const DEFAULT_MAIL_DIR = ".data/local-mail";

export class NotificationSettingsError extends Error {
  override name = "NotificationSettingsError";
}

/** Server-side secrets: a GATSBY_ copy of any of them would be published with the site. */
export const SECRET_VARIABLES = ["SMTP_PASSWORD", "NOTIFY_WEBHOOK_SECRET", "NOTIFY_CHAT_WEBHOOK_URL", "SUPABASE_SERVICE_ROLE_KEY"] as const;

function port(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined || value.trim() === "") return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0 || number > 65_535) {
    throw new NotificationSettingsError(`${name} must be a port number (0–65535), not ${JSON.stringify(value)}.`);
  }
  return number;
}

/**
 * undefined when notifications are off. `projectRoot` anchors the default mail folder;
 * `keepFiles` false (an in-memory backend) keeps caught e-mails in memory only.
 */
export function notificationOptionsFromEnv(
  env: NodeJS.ProcessEnv,
  projectRoot: string,
  keepFiles: boolean,
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
  if (smtpHost) {
    options.smtp = {
      host: smtpHost,
      port: port(value("SMTP_PORT"), "SMTP_PORT", 465),
      username: value("SMTP_USER"),
      password: value("SMTP_PASSWORD"),
    };
  } else {
    const dir = value("LOCAL_MAIL_DIR");
    options.catcher = {
      port: port(value("LOCAL_MAIL_PORT"), "LOCAL_MAIL_PORT", LOCAL_MAIL_PORT),
      dir: keepFiles ? path.resolve(projectRoot, dir ?? DEFAULT_MAIL_DIR) : undefined,
    };
  }
  return options;
}
