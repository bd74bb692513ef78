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
  /** How often a digest is asked for; hosted: every five minutes. */
  digestIntervalMs: number;
  /** Least time between two digests; undefined: the database's default (20 minutes). */
  digestMinIntervalSeconds: number | undefined;
}

async function asks(run: DatabaseRunner, sql: string, values: unknown[] = []): Promise<boolean> {
  const result = await run((db) => db.query<{ due: boolean }>(sql, values));
  return result.rows[0]?.due === true;
}

export function localJobs(run: DatabaseRunner, fn: FunctionCaller, settings: JobSettings): CronJob[] {
  return [
    {
      // 20251123120000_contact_notifications.sql: public.retry_contact_notifications().
      name: "notify-meeting-request-retry",
      intervalMs: settings.sweepIntervalMs,
      async run() {
        if (await asks(run, "select public.has_due_contact_notifications() as due")) fn.post('{"type":"SWEEP"}', "retry sweep");
      },
    },
    {
      // 20261124110000_request_screening.sql: public.send_contact_digest().
      name: "notify-meeting-request-digest",
      intervalMs: settings.digestIntervalMs,
      async run() {
        const interval = settings.digestMinIntervalSeconds;
        const sql = interval === undefined ? "select public.has_due_contact_digest() as due" : "select public.has_due_contact_digest($1) as due";
        if (await asks(run, sql, interval === undefined ? [] : [interval])) fn.post('{"type":"DIGEST"}', "digest");
      },
    },
  ];
}
