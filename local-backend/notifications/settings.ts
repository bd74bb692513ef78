/**
 * The local notification settings from the environment (the shell's, over .env.development and
 * .env). By default e-mails go to the catcher on 54325, saved in .data/local-mail/; SMTP_HOST
 * sends them to a real server instead; LOCAL_NOTIFICATIONS=off turns them off.
 */
import fs from "node:fs";
import path from "node:path";

import dotenv from "dotenv";

import { LocalBackendError } from "../errors";
import { projectRoot } from "../paths";
import { LOCAL_MAIL_PORT, type LocalNotificationsOptions } from "./notifier";

const settingsError = (message: string) => new LocalBackendError(message);

/** Server-side secrets: a GATSBY_ copy of any of them would be published with the site. */
const SECRET_VARIABLES = [
  "SMTP_PASSWORD",
  "NOTIFY_WEBHOOK_SECRET",
  "NOTIFY_CHAT_WEBHOOK_URL",
  "SUPABASE_SERVICE_ROLE_KEY",
];

const isPort = (value: number) => Number.isInteger(value) && value >= 0 && value <= 65_535;
const isPositive = (value: number) => Number.isFinite(value) && value > 0;

/** .data/local-mail beside the default .data/local-supabase; `<folder>-mail` beside any other. */
export function mailDirBeside(dataDir: string): string {
  const name = path.basename(dataDir);
  return path.join(
    path.dirname(dataDir),
    name === "local-supabase" ? "local-mail" : `${name}-mail`,
  );
}

/** Where the backend runs: in memory or in a folder, on port 0 (any free one) or not. */
export interface BackendPlace {
  dataDir: string | undefined;
  port: number;
}

/** undefined when notifications are off. LOCAL_MAIL_DIR is relative to `root` (the project). */
export function notificationOptionsFromEnv(
  env: NodeJS.ProcessEnv,
  root: string,
  backend: BackendPlace,
): LocalNotificationsOptions | undefined {
  const leaked = SECRET_VARIABLES.find((name) => env[`GATSBY_${name}`] !== undefined);
  if (leaked) {
    throw settingsError(
      `GATSBY_${leaked} is set: variables starting with GATSBY_ are published with the site. Rename it to ${leaked} (server-side only).`,
    );
  }
  const value = (name: string): string | undefined => env[name]?.trim() || undefined;
  /** A number `valid` accepts (else one sentence saying `what` it must be); undefined when unset. */
  const numeric = (name: string, valid: (value: number) => boolean, what: string) => {
    const text = value(name);
    if (text !== undefined && !valid(Number(text)))
      throw settingsError(`${name} must be ${what}, not ${JSON.stringify(text)}.`);
    return text === undefined ? undefined : Number(text);
  };
  const PORT = "a port number (0–65535)";
  const SECONDS = "a positive number of seconds";
  if (["off", "false", "0", "no"].includes(value("LOCAL_NOTIFICATIONS")?.toLowerCase() ?? ""))
    return undefined;
  numeric("NOTIFY_RETRY_BASE_SECONDS", isPositive, SECONDS);
  numeric("NOTIFY_RETRY_MAX_SECONDS", isPositive, SECONDS);
  // The functions' settings are passed on as set; LOCAL_SITE_URL is their SITE_URL.
  const passedOn = Object.keys(env).filter((name) => /^(NOTIFY_|BOOKING_NOW$)/.test(name));
  const functionEnv = Object.fromEntries(passedOn.map((name) => [name, value(name)]));
  const options: LocalNotificationsOptions = {
    functionEnv: { ...functionEnv, SITE_URL: value("LOCAL_SITE_URL") },
  };
  const reports = value("LOCAL_SITE_REPORTS")
    ?.split(",")
    .map((kind) => kind.trim());
  if (reports?.some((kind) => kind !== "weekly" && kind !== "daily")) {
    throw settingsError(
      `LOCAL_SITE_REPORTS lists weekly and/or daily, not ${JSON.stringify(value("LOCAL_SITE_REPORTS"))}.`,
    );
  }
  if (reports) options.siteReports = reports as ("weekly" | "daily")[];
  const smtpHost = value("SMTP_HOST");
  if (smtpHost) {
    options.smtp = {
      host: smtpHost,
      port: numeric("SMTP_PORT", isPort, PORT) ?? 465,
      username: value("SMTP_USER"),
      password: value("SMTP_PASSWORD"),
    };
    return options;
  }
  const mailPort = numeric("LOCAL_MAIL_PORT", isPort, PORT);
  const dir = value("LOCAL_MAIL_DIR");
  options.catcher = {
    port: mailPort ?? (backend.port === 0 ? 0 : LOCAL_MAIL_PORT),
    // The usual port taken (another project's catcher): any free one does; a port asked for does not.
    anyPortIfTaken: mailPort === undefined,
    dir:
      backend.dataDir === undefined
        ? undefined
        : dir
          ? path.resolve(root, dir)
          : mailDirBeside(path.resolve(backend.dataDir)),
  };
  return options;
}

/** The environment as `npm start` sees it: the shell's variables over `.env.development` and `.env`. */
export function localEnvironment(): NodeJS.ProcessEnv {
  const read = (name: string): Record<string, string> => {
    try {
      return dotenv.parse(fs.readFileSync(path.join(projectRoot(), name)));
    } catch {
      return {};
    }
  };
  return { ...read(".env"), ...read(".env.development"), ...process.env };
}
