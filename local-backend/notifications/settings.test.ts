import path from "node:path";

import { notificationOptionsFromEnv, NotificationSettingsError } from "./settings";

const root = "/project";

const defaultPlace = { dataDir: "/project/.data/local-supabase", port: 54321 };

test("no settings: the catcher on 54325, e-mails saved in .data/local-mail next to the data folder", () => {
  expect(notificationOptionsFromEnv({}, root, defaultPlace)).toEqual({
    // 54325 taken (another project's catcher): any free port will do, as nobody asked for this one.
    catcher: { port: 54325, anyPortIfTaken: true, dir: path.resolve(root, ".data/local-mail") },
    to: undefined,
    from: undefined,
    chatWebhookUrl: undefined,
    timeZone: undefined,
  });
});

test("an in-memory backend keeps caught e-mails in memory; a backend on any free port gets a catcher on one too", () => {
  expect(notificationOptionsFromEnv({}, root, { dataDir: undefined, port: 0 })?.catcher).toEqual({
    port: 0,
    anyPortIfTaken: true,
    dir: undefined,
  });
  expect(
    notificationOptionsFromEnv({}, root, { dataDir: "/tmp/t1/data", port: 0 })?.catcher,
  ).toEqual({ port: 0, anyPortIfTaken: true, dir: "/tmp/t1/data-mail" });
});

test("LOCAL_MAIL_PORT and LOCAL_MAIL_DIR (relative to the project) are used; a port asked for is not swapped for another", () => {
  expect(
    notificationOptionsFromEnv(
      { LOCAL_MAIL_PORT: "2525", LOCAL_MAIL_DIR: "mail" },
      root,
      defaultPlace,
    )?.catcher,
  ).toEqual({
    port: 2525,
    anyPortIfTaken: false,
    dir: path.resolve(root, "mail"),
  });
});

test("SMTP_HOST sends to that server instead of the catcher; the staff settings are passed on", () => {
  const options = notificationOptionsFromEnv(
    {
      SMTP_HOST: "smtp.resend.com",
      SMTP_USER: "resend",
      SMTP_PASSWORD: "re_123",
      NOTIFY_EMAIL_TO: "sales@example-transit.com",
      NOTIFY_TIME_ZONE: "America/Chicago",
    },
    root,
    defaultPlace,
  );
  expect(options?.catcher).toBeUndefined();
  expect(options?.smtp).toEqual({
    host: "smtp.resend.com",
    port: 465,
    username: "resend",
    password: "re_123",
  });
  expect(options?.to).toBe("sales@example-transit.com");
  expect(options?.timeZone).toBe("America/Chicago");
});

test("NOTIFY_RETRY_BASE_SECONDS and NOTIFY_RETRY_MAX_SECONDS reach the function; anything but a positive number is one clear sentence", () => {
  const options = notificationOptionsFromEnv(
    { NOTIFY_RETRY_BASE_SECONDS: "5", NOTIFY_RETRY_MAX_SECONDS: " 90 " },
    root,
    defaultPlace,
  );
  expect(options).toMatchObject({ retryBaseSeconds: 5, retryMaxSeconds: 90 });
  expect(notificationOptionsFromEnv({}, root, defaultPlace)).not.toHaveProperty("retryBaseSeconds");
  expect(() =>
    notificationOptionsFromEnv({ NOTIFY_RETRY_BASE_SECONDS: "soon" }, root, defaultPlace),
  ).toThrow(
    new NotificationSettingsError(
      'NOTIFY_RETRY_BASE_SECONDS must be a positive number of seconds, not "soon".',
    ),
  );
});

test("LOCAL_NOTIFICATIONS=off turns notifications off; a bad port is one clear sentence", () => {
  expect(
    notificationOptionsFromEnv({ LOCAL_NOTIFICATIONS: "off" }, root, defaultPlace),
  ).toBeUndefined();
  expect(() => notificationOptionsFromEnv({ LOCAL_MAIL_PORT: "mail" }, root, defaultPlace)).toThrow(
    new NotificationSettingsError('LOCAL_MAIL_PORT must be a port number (0–65535), not "mail".'),
  );
});

test("a secret with the GATSBY_ prefix (which Gatsby publishes) is refused", () => {
  expect(() =>
    notificationOptionsFromEnv({ GATSBY_SMTP_PASSWORD: "re_123" }, root, defaultPlace),
  ).toThrow(
    /GATSBY_SMTP_PASSWORD is set: variables starting with GATSBY_ are published with the site\. Rename it to SMTP_PASSWORD/,
  );
});
