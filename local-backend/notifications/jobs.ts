/**
 * The local twins of the hosted pg_cron jobs (supabase/migrations): each asks the database
 * whether there is work, and only then posts to the function, as the SQL job does.
 * Another job is one more entry in the list.
 */
import type { FunctionCaller } from "./function-caller";
import type { CronJob } from "./local-cron";
import type { DatabaseRunner } from "./service-api";

export interface JobSettings {
  /** How often due notifications are retried; hosted: every minute. */
  sweepIntervalMs: number;
  /** How often the digest job looks; hosted: every minute (the least time between two digests is a database setting). */
  digestIntervalMs: number;
  /** The site-analytics reports to send (LOCAL_SITE_REPORTS); none unless asked for. */
  siteReports: readonly ("weekly" | "daily")[];
}

async function asks(run: DatabaseRunner, sql: string): Promise<boolean> {
  const result = await run((db) => db.query<{ due: boolean }>(sql));
  return result.rows[0]?.due === true;
}

export function localJobs(
  run: DatabaseRunner,
  fn: FunctionCaller,
  settings: JobSettings,
): CronJob[] {
  const jobs: CronJob[] = [
    {
      // 20251123120000_contact_notifications.sql: public.retry_contact_notifications().
      name: "notify-meeting-request-retry",
      intervalMs: settings.sweepIntervalMs,
      async run() {
        if (await asks(run, "select public.has_due_contact_notifications() as due"))
          fn.post('{"type":"SWEEP"}', "retry sweep");
      },
    },
    {
      // 20261124110000_request_screening.sql: public.send_contact_digest().
      name: "notify-meeting-request-digest",
      intervalMs: settings.digestIntervalMs,
      async run() {
        if (await asks(run, "select public.has_due_contact_digest() as due"))
          fn.post('{"type":"DIGEST"}', "digest");
      },
    },
  ];
  if (settings.siteReports.length === 0) return jobs;
  jobs.push({
    // 20261124200000_site_analytics.sql: public.send_site_report('weekly' | 'daily'). Each ended
    // period's report is claimed once, so an hourly look is enough.
    name: "site-analytics-report",
    intervalMs: 3_600_000,
    async run() {
      for (const kind of settings.siteReports) {
        const result = await run((db) =>
          db.query<{ body: string | null }>("select public.claim_site_report($1)::text as body", [
            kind,
          ]),
        );
        if (result.rows[0]?.body) fn.post(result.rows[0].body, `${kind} site report`);
      }
    },
  });
  return jobs;
}
