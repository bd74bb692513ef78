/**
 * The delivery state in the database, through the project's REST API with the service role:
 * the claim and finish functions of supabase/migrations/20251123120000_contact_notifications.sql.
 */
import { parseMeetingRequest, type MeetingRequest } from "./payload.ts";

export interface ClaimedRequest {
  lease: string;
  attempt: number;
  request: MeetingRequest;
}

export interface Outcome {
  /** Why the e-mail was not delivered; undefined = delivered. */
  failure?: string;
  retryInSeconds?: number;
  /** A remark kept with a delivered notification (e.g. the chat webhook failed). */
  note?: string;
}

export interface DeliveryStore {
  /** The request, leased to this caller, or undefined when delivered already or leased by another. */
  claim(requestId: number, leaseSeconds: number): Promise<ClaimedRequest | undefined>;
  /** Up to `max` requests that are due (never tried, or their back-off is over), leased. */
  claimDue(max: number, leaseSeconds: number): Promise<ClaimedRequest[]>;
  /** Records the outcome; false when the lease was lost (it expired and another caller took over). */
  finish(requestId: number, lease: string, outcome: Outcome): Promise<boolean>;
}

export class StoreError extends Error {
  override name = "StoreError";
}

function claimedRows(rows: unknown): ClaimedRequest[] {
  if (!Array.isArray(rows)) throw new StoreError("the claim did not answer with rows");
  return rows.map((row: unknown) => {
    const fields = (row ?? {}) as { lease_token?: unknown; attempt?: unknown };
    const request = parseMeetingRequest(row);
    if (
      typeof fields.lease_token !== "string" ||
      typeof fields.attempt !== "number" ||
      !request.ok
    ) {
      throw new StoreError(
        `the claim answered with an unexpected row${request.ok ? "" : ` (${request.problem})`}`,
      );
    }
    return { lease: fields.lease_token, attempt: fields.attempt, request: request.value };
  });
}

/** Calls `public.<name>` through the project's REST API (PostgREST RPC) with the service role. */
export type Rpc = (name: string, args: Record<string, unknown>) => Promise<unknown>;

export function restRpc(supabaseUrl: string, serviceKey: string): Rpc {
  // New-style secret keys (sb_secret_…) go in apikey only; a legacy service-role JWT also as Bearer.
  const headers: Record<string, string> = {
    apikey: serviceKey,
    "Content-Type": "application/json",
  };
  if (!serviceKey.startsWith("sb_secret_")) headers.Authorization = `Bearer ${serviceKey}`;

  return async function rpc(name, args) {
    let response: Response;
    try {
      response = await fetch(`${supabaseUrl}/rest/v1/rpc/${name}`, {
        method: "POST",
        headers,
        body: JSON.stringify(args),
        signal: AbortSignal.timeout(15_000),
      });
    } catch (error) {
      throw new StoreError(
        `database API not reached (${name}): ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    const text = await response.text();
    if (!response.ok)
      throw new StoreError(
        `database API refused ${name}: HTTP ${response.status} ${text.slice(0, 300)}`,
      );
    try {
      return JSON.parse(text);
    } catch {
      throw new StoreError(`database API answered ${name} with something other than JSON`);
    }
  };
}

export function restDeliveryStore(supabaseUrl: string, serviceKey: string): DeliveryStore {
  const rpc = restRpc(supabaseUrl, serviceKey);
  return {
    async claim(requestId, leaseSeconds) {
      const rows = claimedRows(
        await rpc("claim_contact_notification", {
          request_id: requestId,
          lease_seconds: leaseSeconds,
        }),
      );
      return rows[0];
    },
    async claimDue(max, leaseSeconds) {
      return claimedRows(
        await rpc("claim_due_contact_notifications", {
          max_count: max,
          lease_seconds: leaseSeconds,
        }),
      );
    },
    async finish(requestId, lease, outcome) {
      const rows = await rpc("finish_contact_notification", {
        request_id: requestId,
        lease,
        failure: outcome.failure ?? null,
        retry_in_seconds: outcome.retryInSeconds ?? 60,
        note: outcome.note ?? null,
      });
      return (
        Array.isArray(rows) && (rows[0] as { recorded?: unknown } | undefined)?.recorded === true
      );
    },
  };
}
