/**
 * The delivery state in the database, through the REST API with the service role: a claim
 * leases what it returns to this call; finishing records the outcome under that lease.
 */
import { claimedRequests, heldDigests, type ClaimedRequest, type HeldDigest } from "./payload.ts";

export interface Outcome {
  /** Why the e-mail was not delivered; undefined = delivered. */
  failure?: string;
  retryInSeconds?: number;
  /** A remark kept with a delivered notification (e.g. the chat webhook failed). */
  note?: string;
}

export interface DeliveryStore {
  /** The request, or undefined when it was delivered already or another call holds it. */
  claim(requestId: number, leaseSeconds: number): Promise<ClaimedRequest | undefined>;
  /** Up to `max` requests that are due (never tried, or their back-off is over). */
  claimDue(max: number, leaseSeconds: number): Promise<ClaimedRequest[]>;
  /** Records the outcome; false when the lease was lost (it expired and another call took over). */
  finish(requestId: number, lease: string, outcome: Outcome): Promise<boolean>;
  claimDigest(leaseSeconds: number): Promise<HeldDigest | undefined>;
  finishDigest(digestId: number, lease: string, outcome: Outcome): Promise<boolean>;
}

/** Calls `public.<name>` through PostgREST's RPC with the service role; any failure throws. */
export function restRpc(supabaseUrl: string, serviceKey: string) {
  // New-style secret keys (sb_secret_…) go in apikey only; a legacy service-role JWT also as Bearer.
  const headers: Record<string, string> = {
    apikey: serviceKey,
    "Content-Type": "application/json",
  };
  if (!serviceKey.startsWith("sb_secret_")) headers.Authorization = `Bearer ${serviceKey}`;

  return async (name: string, args: Record<string, unknown>): Promise<unknown> => {
    const response = await fetch(`${supabaseUrl}/rest/v1/rpc/${name}`, {
      method: "POST",
      headers,
      body: JSON.stringify(args),
      signal: AbortSignal.timeout(15_000),
    }).catch((error: Error) => {
      throw new Error(`database API not reached (${name}): ${error.message}`);
    });
    const text = await response.text();
    if (!response.ok)
      throw new Error(
        `database API refused ${name}: HTTP ${response.status} ${text.slice(0, 300)}`,
      );
    try {
      return JSON.parse(text);
    } catch {
      throw new Error(`database API answered ${name} with something other than JSON`);
    }
  };
}

export function restDeliveryStore(supabaseUrl: string, serviceKey: string): DeliveryStore {
  const rpc = restRpc(supabaseUrl, serviceKey);
  const record = async (name: string, args: object, outcome: Outcome, retryInSeconds: number) => {
    const rows = await rpc(name, {
      ...args,
      failure: outcome.failure ?? null,
      retry_in_seconds: outcome.retryInSeconds ?? retryInSeconds,
    });
    return (
      Array.isArray(rows) && (rows[0] as { recorded?: unknown } | undefined)?.recorded === true
    );
  };
  return {
    async claim(requestId, leaseSeconds) {
      const args = { request_id: requestId, lease_seconds: leaseSeconds };
      return claimedRequests(await rpc("claim_contact_notifications", args))[0];
    },
    async claimDue(max, leaseSeconds) {
      const args = { max_count: max, lease_seconds: leaseSeconds };
      return claimedRequests(await rpc("claim_contact_notifications", args));
    },
    finish(requestId, lease, outcome) {
      const args = { request_id: requestId, lease, note: outcome.note ?? null };
      return record("finish_contact_notification", args, outcome, 60);
    },
    async claimDigest(leaseSeconds) {
      return heldDigests(await rpc("claim_contact_digest", { lease_seconds: leaseSeconds }))[0];
    },
    finishDigest(digestId, lease, outcome) {
      return record("finish_contact_digest", { digest_id: digestId, lease }, outcome, 300);
    },
  };
}
