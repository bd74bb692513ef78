/**
 * When a long-running command (npm run backend, npm start) should stop: on Ctrl-C (SIGINT),
 * SIGTERM or SIGHUP, and when the process that started it has gone (npm exits at once on
 * SIGTERM without waiting for its script, which would otherwise be left running).
 *
 * One request stops cleanly. The same signal can arrive more than once for one Ctrl-C (the
 * terminal signals the whole process group, and npm or a runner may pass it on), so repeats
 * within REPEAT_GRACE_MS are ignored; a later one forces the exit.
 */
const REPEAT_GRACE_MS = 1_000;
const PARENT_CHECK_MS = 250;

export interface StopRequestOptions {
  /** Called once, with what asked for the stop. */
  stop: (reason: string) => void;
  /** Called for a deliberate second Ctrl-C; default: print a line and exit with 130. */
  force?: (signal: NodeJS.Signals) => void;
}

const SIGNALS: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

/** Installs the handlers; returns a function that removes them. */
export function onStopRequest({ stop, force }: StopRequestOptions): () => void {
  let firstAt: number | undefined;
  const forceExit =
    force ??
    ((signal: NodeJS.Signals) => {
      console.error(`Received ${signal} again: exiting without waiting.`);
      process.exit(130);
    });
  const request = (reason: string, signal?: NodeJS.Signals): void => {
    if (firstAt === undefined) {
      firstAt = Date.now();
      stop(reason);
    } else if (signal && Date.now() - firstAt >= REPEAT_GRACE_MS) {
      forceExit(signal);
    }
  };
  const handlers = SIGNALS.map((signal) => {
    const handler = (): void => request(signal, signal);
    process.on(signal, handler);
    return [signal, handler] as const;
  });
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid !== parent) request("the process that started it has ended");
  }, PARENT_CHECK_MS);
  watch.unref();
  return () => {
    clearInterval(watch);
    for (const [signal, handler] of handlers) process.off(signal, handler);
  };
}
