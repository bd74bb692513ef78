/**
 * Posts to the notify-meeting-request function the way pg_net does on a hosted project: fire
 * and forget, with the shared secret; failures are only logged (the requests stay in the
 * database and are retried). Tracks the calls in flight so a stopping backend can wait for
 * them, and aborts them if they outlast its grace period.
 */
export interface FunctionCaller {
  /** Posts `body` (JSON text); `what` names the call in log lines. */
  post(body: string, what: string): void;
  /** Resolves when every call made so far has finished. */
  idle(): Promise<void>;
  /** Aborts the calls still running. */
  abort(): void;
}

export function createFunctionCaller(
  url: string,
  secret: string,
  log: (line: string) => void,
): FunctionCaller {
  const inflight = new Set<Promise<void>>();
  const stopping = new AbortController();
  return {
    post(body, what) {
      const call = (async () => {
        try {
          const response = await fetch(url, {
            method: "POST",
            headers: { "Content-Type": "application/json", "X-Webhook-Secret": secret },
            body,
            signal: AbortSignal.any([AbortSignal.timeout(120_000), stopping.signal]),
          });
          const answer = await response.text();
          if (!response.ok)
            log(`notify: ${what} answered HTTP ${response.status} ${answer.slice(0, 200)}`);
        } catch (error) {
          log(
            `notify: ${what} did not reach the function (${error instanceof Error ? error.message : String(error)}); the request stays pending and is retried`,
          );
        }
      })();
      inflight.add(call);
      void call.finally(() => inflight.delete(call));
    },
    async idle() {
      while (inflight.size > 0) await Promise.allSettled([...inflight]);
    },
    abort() {
      stopping.abort();
    },
  };
}
