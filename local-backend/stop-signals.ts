/**
 * When a long-running command (npm run backend, npm start) should stop: on SIGINT, SIGTERM or
 * SIGHUP, and when the process that started it has gone (npm exits at once on SIGTERM without
 * waiting for its script). One Ctrl-C can arrive more than once (the terminal signals the whole
 * group, and npm may pass it on): repeats within REPEAT_GRACE_MS are ignored, a later one forces.
 */
const REPEAT_GRACE_MS = 1_000;
const PARENT_CHECK_MS = 250;

const SIGNALS: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

/** Installs the handlers; `stop` is called once, with what asked for the stop. */
export function onStopRequest({ stop }: { stop: (reason: string) => void }): void {
  let firstAt: number | undefined;
  const request = (reason: string, signal?: NodeJS.Signals): void => {
    if (firstAt === undefined) {
      firstAt = Date.now();
      stop(reason);
    } else if (signal && Date.now() - firstAt >= REPEAT_GRACE_MS) {
      console.error(`Received ${signal} again: exiting without waiting.`);
      process.exit(130);
    }
  };
  for (const signal of SIGNALS) process.on(signal, () => request(signal, signal));
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) request("the process that started it has ended");
  }, PARENT_CHECK_MS).unref();
}
