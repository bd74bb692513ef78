/**
 * The local stand-in for the pg_cron report job: with LOCAL_SITE_REPORTS, the notifier posts the
 * report whose period has ended to the real function under Deno, which e-mails it to the catcher,
 * once per period.
 */
import { startLocalNotifier } from "../../local-backend/notifications/notifier";
import { notificationOptionsFromEnv } from "../../local-backend/notifications/settings";
import { startLocalBackend } from "../../local-backend/server";
import { openedForTests } from "../../local-backend/test-support/helpers";

jest.setTimeout(60_000);

const backend = openedForTests(() => startLocalBackend({ port: 0 }));
const db = () => backend().db;

test("yesterday's report is e-mailed once to the report's recipients, with yesterday's counts", async () => {
  await db().exec(`insert into private.site_event_counts (day, kind, source, medium, count) values
    ((now() at time zone 'UTC')::date - 1, 'view', 'flyer', 'qr', 12),
    ((now() at time zone 'UTC')::date - 1, 'request_sent', 'flyer', 'qr', 2),
    ((now() at time zone 'UTC')::date, 'view', 'flyer', 'qr', 99)`);
  const notifier = await startLocalNotifier(backend(), {
    catcher: { port: 0 },
    siteReports: ["daily"],
    functionEnv: { NOTIFY_EMAIL_TO: "Marketing <marketing@example-transit.test>" },
  });
  try {
    const [mail] = await notifier.catcher!.waitFor(1);
    await notifier.idle();
    expect(mail!.to).toEqual(["marketing@example-transit.test"]);
    expect(mail!.headers.get("subject")).toMatch(
      /^Daily website report, .*: 12 views, 2 meeting requests$/,
    );
    expect(notifier.catcher!.messages).toHaveLength(1);
  } finally {
    await notifier.close();
  }
});

test("LOCAL_SITE_REPORTS names the reports; nothing else is accepted, and without it no report is sent", () => {
  const place = { dataDir: undefined, port: 0 };
  expect(
    notificationOptionsFromEnv({ LOCAL_SITE_REPORTS: "weekly, daily" }, "/project", place)
      ?.siteReports,
  ).toEqual(["weekly", "daily"]);
  expect(notificationOptionsFromEnv({}, "/project", place)?.siteReports).toBeUndefined();
  expect(() =>
    notificationOptionsFromEnv({ LOCAL_SITE_REPORTS: "monthly" }, "/project", place),
  ).toThrow(/LOCAL_SITE_REPORTS/);
});
