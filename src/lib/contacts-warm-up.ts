import { FORM_PROOF_HEADER } from "./form-proof-header";

/** Where the page's meeting requests go, as the build baked it in. */
export type SupabaseEndpoint = { url: string; anonKey: string };

/**
 * The contacts insert as supabase-js sends it (src/lib/submit-meeting-request.ts,
 * contactsInsertRequest), with no rows: the same URL and the same header names (a node test and an
 * e2e test compare them with the real insert), so the browser's CORS preflight for it serves the
 * insert, and PostgREST answers it 201 without storing anything. The values need not match: a
 * preflight asks only for names.
 *
 * A request the cached answer serves does not renew it, so repeats (`round` 1, 2, …: while the
 * visitor stays on the form, src/lib/keep-submit-warm.ts) add one header name more, alternating
 * between two, which the cached answer does not cover: the browser asks again, and the new answer
 * (for the insert's names and that one) replaces the old for another 5 s.
 */
export function contactsWarmUpRequest(
  { url, anonKey }: SupabaseEndpoint,
  round = 0,
): [string, RequestInit] {
  return [
    `${url}/rest/v1/contacts`,
    {
      method: "POST",
      headers: {
        apikey: anonKey,
        Authorization: `Bearer ${anonKey}`,
        "Content-Type": "application/json",
        "Content-Profile": "public",
        "X-Client-Info": "warm-up",
        [FORM_PROOF_HEADER]: "warm-up",
        ...(round > 0 ? { [`x-warm-up-${round % 2 ? "a" : "b"}`]: String(round) } : {}),
      },
      body: "[]",
    },
  ];
}

/**
 * Sends the warm-up: it opens the connections the insert needs (Chromium sends preflights on a
 * connection of their own, which `<link rel=preconnect>` cannot open) and leaves the preflight's
 * answer in the browser's cache (5 s: hosted Supabase sends no Access-Control-Max-Age). The first
 * one leaves from the page's inline loader, built from contactsWarmUpRequest
 * (build-time/page-scripts.ts); the repeats from here. Never rejects: a failed warm-up only leaves
 * that work to the submit.
 */
export async function warmUpContactsInsert(
  endpoint: SupabaseEndpoint,
  send: typeof fetch = fetch,
  round = 0,
): Promise<void> {
  try {
    const [url, init] = contactsWarmUpRequest(endpoint, round);
    await send(url, init);
  } catch {
    // see above
  }
}
