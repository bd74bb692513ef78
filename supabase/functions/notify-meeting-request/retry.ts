/** When a failed notification is tried again: doubling from `baseSeconds`, never more than `maxSeconds` apart. */
export interface RetryPolicy {
  baseSeconds: number;
  maxSeconds: number;
}

export const DEFAULT_RETRY: RetryPolicy = { baseSeconds: 30, maxSeconds: 30 * 60 };

/** Seconds to wait after the given (1-based) attempt failed: 30, 60, 120, … 1800, 1800, … by default. */
export function retryDelaySeconds(attempt: number, policy: RetryPolicy = DEFAULT_RETRY): number {
  const exponent = Math.min(Math.max(attempt, 1) - 1, 30);
  return Math.min(policy.baseSeconds * 2 ** exponent, policy.maxSeconds);
}
