/** The local stand-in for pg_cron: each named job at start and on its interval, one run at a time, errors logged. */
import { startLocalCron } from "./local-cron";

test("each job runs at start and then on its own interval; a slow run is never overlapped", async () => {
  jest.useFakeTimers();
  try {
    const runs: string[] = [];
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
      ],
      () => {},
    );
    await jest.advanceTimersByTimeAsync(150);
    const closing = cron.close();
    await jest.advanceTimersByTimeAsync(60);
    await closing;
    // fast: at 0, 20, …, 140 ms; slow: at 0, then the first tick after each 60 ms run (70, 140).
    expect(runs.filter((name) => name === "fast")).toHaveLength(8);
    expect(runs.filter((name) => name === "slow")).toHaveLength(3);
    expect(overlapped).toBe(false);
    const after = runs.length;
    await jest.advanceTimersByTimeAsync(100);
    expect(runs.length).toBe(after); // closed: no more runs
  } finally {
    jest.useRealTimers();
  }
});

test("a failing job is logged and runs again on its interval", async () => {
  const lines: string[] = [];
  let calls = 0;
  const failing = async () => {
    calls += 1;
    throw new Error("database busy");
  };
  jest.useFakeTimers();
  try {
    const job = { name: "notify-meeting-request-digest", intervalMs: 20, run: failing };
    const cron = startLocalCron([job], (line) => lines.push(line));
    await jest.advanceTimersByTimeAsync(25);
    await cron.close();
  } finally {
    jest.useRealTimers();
  }
  expect(calls).toBe(2);
  expect(lines).toEqual(
    Array(2).fill("cron: notify-meeting-request-digest failed (database busy)"),
  );
});
