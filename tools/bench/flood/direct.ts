/**
 * `--mode direct` (case 3): a script that holds the public anon key and never looks at the
 * page: direct POSTs to /rest/v1/contacts from one address, 20 at a time, no page proof,
 * rotating e-mail addresses, spam text (supabase/tests/screening-corpus.ts) and a different
 * spoofed X-Forwarded-For / CF-Connecting-IP / X-Real-IP on each.
 */
import { spamRequest } from "../../../supabase/tests/screening-corpus";
import { anonKeyHeaders } from "./page-headers";
import { postFrom } from "./post";

export const DIRECT_FROM = "127.0.0.2";
export const DIRECT_CONCURRENCY = 20;

export interface DirectResult {
  /** HTTP status → requests (0: no answer). */
  byStatus: Map<number, number>;
  ms: number;
  /** Date.now() of the last request answered 201 (0: none), and of the last sent. */
  lastStoredAt: number;
  lastSentAt: number;
}

export async function directFlood(
  backendUrl: string,
  anonKey: string,
  count: number,
): Promise<DirectResult> {
  const url = new URL("/rest/v1/contacts", backendUrl);
  const result: DirectResult = { byStatus: new Map(), ms: 0, lastStoredAt: 0, lastSentAt: 0 };
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: DIRECT_CONCURRENCY }, async () => {
      for (;;) {
        const index = next++;
        if (index >= count) return;
        const spoofed = `${((index * 7) % 223) + 1}.${index % 251}.${(index >> 8) % 251}.${(index % 200) + 1}`;
        result.lastSentAt = Date.now();
        const headers = {
          ...anonKeyHeaders(anonKey),
          "X-Forwarded-For": spoofed,
          "CF-Connecting-IP": spoofed,
          "X-Real-IP": spoofed,
        };
        const { status } = await postFrom(url, {
          localAddress: DIRECT_FROM,
          agent: false,
          headers,
          body: JSON.stringify(spamRequest(index)),
        });
        if (status === 201) result.lastStoredAt = Date.now();
        result.byStatus.set(status, (result.byStatus.get(status) ?? 0) + 1);
      }
    }),
  );
  result.ms = performance.now() - started;
  return result;
}
