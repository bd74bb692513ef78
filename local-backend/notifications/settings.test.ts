/** The local notification settings from the environment, and the one sentence for each mistake. */
import { notificationOptionsFromEnv, type BackendPlace } from "./settings";

const HOME: BackendPlace = { dataDir: "/p/.data/local-supabase", port: 54321 };
const options = (env: NodeJS.ProcessEnv, place = HOME) =>
  notificationOptionsFromEnv(env, "/p", place);

test.each<[string, NodeJS.ProcessEnv, BackendPlace, object]>([
  // 54325 taken (another project's catcher): any free port will do, as nobody asked for this one.
  [
    "no settings: the catcher on 54325, e-mails in .data/local-mail",
    {},
    HOME,
    { port: 54325, anyPortIfTaken: true, dir: "/p/.data/local-mail" },
  ],
  [
    "an in-memory backend on any port: any port, e-mails in memory",
    {},
    { dataDir: undefined, port: 0 },
    { port: 0, anyPortIfTaken: true, dir: undefined },
  ],
  [
    "another data folder: <folder>-mail beside it",
    {},
    { dataDir: "/tmp/t1/data", port: 0 },
    { port: 0, anyPortIfTaken: true, dir: "/tmp/t1/data-mail" },
  ],
  [
    "LOCAL_MAIL_PORT and LOCAL_MAIL_DIR (relative to the project): that port only",
    { LOCAL_MAIL_PORT: "2525", LOCAL_MAIL_DIR: "mail" },
    HOME,
    { port: 2525, anyPortIfTaken: false, dir: "/p/mail" },
  ],
])("%s", (_label, env, place, catcher) => {
  expect(options(env, place)?.catcher).toEqual(catcher);
});

test("SMTP_HOST sends to that server instead of the catcher; the other settings are passed on", () => {
  expect(
    options({
      SMTP_HOST: "smtp.resend.com",
      SMTP_USER: "resend",
      SMTP_PASSWORD: "re_123",
      NOTIFY_EMAIL_TO: "sales@example-transit.com",
      NOTIFY_TIME_ZONE: "America/Chicago",
      NOTIFY_RETRY_BASE_SECONDS: "5",
      NOTIFY_RETRY_MAX_SECONDS: " 90 ",
    }),
  ).toEqual({
    smtp: { host: "smtp.resend.com", port: 465, username: "resend", password: "re_123" },
    functionEnv: {
      NOTIFY_EMAIL_TO: "sales@example-transit.com",
      NOTIFY_TIME_ZONE: "America/Chicago",
      NOTIFY_RETRY_BASE_SECONDS: "5",
      NOTIFY_RETRY_MAX_SECONDS: "90",
      SITE_URL: undefined,
    },
  });
  expect(options({ LOCAL_SITE_URL: "http://localhost:9000" })?.functionEnv).toEqual({
    SITE_URL: "http://localhost:9000",
  });
  expect(options({ LOCAL_NOTIFICATIONS: "off" })).toBeUndefined();
});

test.each([
  [
    "NOTIFY_RETRY_BASE_SECONDS",
    "soon",
    'NOTIFY_RETRY_BASE_SECONDS must be a positive number of seconds, not "soon".',
  ],
  ["LOCAL_MAIL_PORT", "mail", 'LOCAL_MAIL_PORT must be a port number (0–65535), not "mail".'],
  [
    "GATSBY_SMTP_PASSWORD",
    "re_123",
    "GATSBY_SMTP_PASSWORD is set: variables starting with GATSBY_ are published with the site. Rename it to SMTP_PASSWORD (server-side only).",
  ],
])("%s=%s is one clear sentence", (name, value, message) => {
  expect(() => options({ [name]: value })).toThrow(message);
});
