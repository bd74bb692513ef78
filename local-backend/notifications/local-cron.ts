/**
 * A small local stand-in for pg_cron: named jobs, each run on its own interval (and once at
 * start), never two runs of one job at a time. A job's errors are logged, never thrown. The
 * hosted project's jobs are in the migrations (cron.schedule); each has a local twin in jobs.ts.
 */
export interface CronJob {
  /** The hosted job's name (cron.job.jobname), for log lines. */
  name: string;
  intervalMs: number;
  run(): Promise<void>;
}

export interface LocalCron {
  /** Runs a job now (unless it is running), e.g. after an event that makes it due. */
  runNow(name: string): void;
  /** Stops the timers and waits for runs in progress. */
  close(): Promise<void>;
}

export function startLocalCron(jobs: readonly CronJob[], log: (line: string) => void): LocalCron {
  const running = new Map<string, Promise<void>>();
  let closed = false;
  const start = (job: CronJob): void => {
    if (closed || running.has(job.name)) return;
    const run = job
      .run()
      .catch((error: unknown) =>
        log(`cron: ${job.name} failed (${error instanceof Error ? error.message : String(error)})`),
      )
      .finally(() => running.delete(job.name));
    running.set(job.name, run);
  };
  const timers = jobs.map((job) => {
    const timer = setInterval(() => start(job), job.intervalMs);
    timer.unref();
    start(job);
    return timer;
  });
  return {
    runNow(name) {
      const job = jobs.find((candidate) => candidate.name === name);
      if (job) start(job);
    },
    async close() {
      closed = true;
      for (const timer of timers) clearInterval(timer);
      await Promise.allSettled([...running.values()]);
    },
  };
}
