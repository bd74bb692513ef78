/** The local stand-in for pg_cron: each named job at start and on its interval, one run at a time, errors logged. */
import { startLocalCron } from "./local-cron";

test("each job runs at start and then on its own interval; a slow run is never overlapped; a failing one is logged and runs again", async () => {
  jest.useFakeTimers();
  try {
    const runs: string[] = [];
    const lines: string[] = [];
    let slowRunning = 0;
    let overlapped = false;
    const cron = startLocalCron(
      [
        { name: "fast", intervalMs: 20, run: async () => void runs.push("fast") },
        {
          name: "slow",
          intervalMs: 10,
          run: async () => {
            slowRunning += 1;
            if (slowRunning > 1) overlapped = true;
            runs.push("slow");
            await new Promise((resolve) => setTimeout(resolve, 60));
            slowRunning -= 1;
          },
        },
        {
          name: "notify-meeting-request-digest",
          intervalMs: 100,
          run: async () => {
            throw new Error("database busy");
          },
        },
      ],
      (line) => lines.push(line),
    );
    await jest.advanceTimersByTimeAsync(150);
    const closing = cron.close();
    await jest.advanceTimersByTimeAsync(60);
    await closing;
    // fast: at 0, 20, …, 140 ms; slow: at 0, then the first tick after each 60 ms run (70, 140).
    expect(runs.filter((name) => name === "fast")).toHaveLength(8);
    expect(runs.filter((name) => name === "slow")).toHaveLength(3);
    expect(overlapped).toBe(false);
    expect(lines).toEqual(
      Array(2).fill("cron: notify-meeting-request-digest failed (database busy)"),
    );
    const after = runs.length;
    await jest.advanceTimersByTimeAsync(100);
    expect(runs.length).toBe(after); // closed: no more runs
  } finally {
    jest.useRealTimers();
  }
});
