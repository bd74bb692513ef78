import { FORM_PROOF_HEADER } from "./form-proof-header";

/**
 * The visit's campaign on every insert, "source/medium/campaign" or empty (campaignHeaderValue in
 * submit-meeting-request.ts): the database keeps it with the request, to count meetings per campaign.
 */
export const CAMPAIGN_HEADER = "x-campaign";

/** Where the page's meeting requests go, as the build baked it in. */
export type SupabaseEndpoint = { url: string; anonKey: string };

/**
 * The contacts insert as supabase-js sends it, with no rows: the same URL and header names (tests
 * compare them), so its CORS preflight serves the insert; PostgREST stores nothing. A cached answer
 * is not renewed by use, so each repeat (`round` 1, 2, …) adds one header name more, alternating
 * between two: the browser asks again, and the new answer lasts another 5 s.
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
        [CAMPAIGN_HEADER]: "",
        ...(round > 0 ? { [`x-warm-up-${round % 2 ? "a" : "b"}`]: String(round) } : {}),
      },
      body: "[]",
    },
  ];
}

/**
 * Sends the warm-up: it opens the connection Chromium sends preflights on (a preconnect cannot)
 * and leaves the preflight's answer cached. Never rejects: a failure leaves the work to the submit.
 */
export async function warmUpContactsInsert(endpoint: SupabaseEndpoint, round = 0): Promise<void> {
  try {
    await fetch(...contactsWarmUpRequest(endpoint, round));
  } catch {
    // the submit does that work then
  }
}
