/**
 * A small stand-in for pg_cron: named jobs, each run at start and then on its interval, never two
 * runs of one job at once, errors logged. `localJobs` are the hosted jobs' twins (cron.schedule in
 * supabase/migrations): each asks the database whether there is work, then posts to the function.
 */
import type { PGlite } from "@electric-sql/pglite";

import { oneLine } from "../errors";
import type { FunctionCaller } from "./function-process";

export interface CronJob {
  /** The hosted job's name (cron.job.jobname), for log lines. */
  name: string;
  intervalMs: number;
  run(): Promise<void>;
}

/** Runs a task with the database to itself (the backend's queue). */
export type DatabaseRunner = <T>(task: (db: PGlite) => Promise<T>) => Promise<T>;

export interface JobSettings {
  /** How often due notifications are retried; hosted: every minute. */
  sweepIntervalMs: number;
  /** How often the digest job looks; the least time between two digests is a database setting. */
  digestIntervalMs: number;
  /** The site-analytics reports to send (LOCAL_SITE_REPORTS). */
  siteReports: readonly ("weekly" | "daily")[];
}

export function localJobs(run: DatabaseRunner, fn: FunctionCaller, settings: JobSettings) {
  const postIf = async (question: string, body: string, what: string): Promise<void> => {
    const answer = await run((db) => db.query<{ due: boolean }>(`select ${question} as due`));
    if (answer.rows[0]?.due) fn.post(body, what);
  };
  const jobs: CronJob[] = [
    {
      name: "notify-meeting-request-retry",
      intervalMs: settings.sweepIntervalMs,
      run: () =>
        postIf("public.has_due_contact_notifications()", '{"type":"SWEEP"}', "retry sweep"),
    },
    {
      name: "notify-meeting-request-digest",
      intervalMs: settings.digestIntervalMs,
      run: () => postIf("public.has_due_contact_digest()", '{"type":"DIGEST"}', "digest"),
    },
  ];
  if (settings.siteReports.length > 0) {
    jobs.push({
      // Each ended period's report is claimed once, so an hourly look is enough.
      name: "site-analytics-report",
      intervalMs: 3_600_000,
      async run() {
        for (const kind of settings.siteReports) {
          const claim = await run((db) =>
            db.query<{ body: string | null }>("select public.claim_site_report($1)::text as body", [
              kind,
            ]),
          );
          if (claim.rows[0]?.body) fn.post(claim.rows[0].body, `${kind} site report`);
        }
      },
    });
  }
  return jobs;
}

/** Starts the jobs; the result stops the timers and waits for the runs in progress. */
export function startLocalCron(jobs: readonly CronJob[], log: (line: string) => void) {
  const running = new Map<string, Promise<void>>();
  let closed = false;
  const start = (job: CronJob): void => {
    if (closed || running.has(job.name)) return;
    const run = job
      .run()
      .catch((error: unknown) => log(`cron: ${job.name} failed (${oneLine(error)})`))
      .finally(() => running.delete(job.name));
    running.set(job.name, run);
  };
  const timers = jobs.map((job) => {
    start(job);
    return setInterval(() => start(job), job.intervalMs).unref();
  });
  return {
    async close(): Promise<void> {
      closed = true;
      for (const timer of timers) clearInterval(timer);
      await Promise.allSettled([...running.values()]);
    },
  };
}
