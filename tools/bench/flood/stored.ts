/**
 * The database's side of a run: the requests stored since it started, whose address sent them
 * (the screening's keyed hash, contact_screening.client_key), their screening and notification
 * state; and the wait until every one of them has reached staff (one-by-one e-mail or listed in
 * a digest) or never will (its digest was sent without listing it), or until the deadline.
 */
import type { PGlite } from "@electric-sql/pglite";

import type { StaffMail } from "./staff-mail";

export interface StoredRequest {
  id: number;
  email: string;
  clientKey: string | null;
  verdict: string | null;
  proof: string | null;
  budget: string | null;
  signals: string[] | null;
  notification: string | null;
}

/** The keyed hash the screening stores for `address` (as the backend names the socket's address). */
export async function clientKey(db: PGlite, address: string): Promise<string> {
  const result = await db.query<{ key: string }>(
    "select private.client_key(private.client_address($1)) as key",
    [JSON.stringify({ "cf-connecting-ip": address })],
  );
  return result.rows[0]!.key;
}

export async function lastRequestId(db: PGlite): Promise<number> {
  return (
    (await db.query<{ id: number | null }>("select max(id)::int as id from public.contacts"))
      .rows[0]!.id ?? 0
  );
}

export async function requestsSince(db: PGlite, afterId: number): Promise<StoredRequest[]> {
  const result = await db.query<StoredRequest>(
    `select c.id::int as id, c.email, s.client_key as "clientKey", s.verdict, s.proof, s.budget, s.signals, n.status as notification
       from public.contacts c
       left join public.contact_screening s on s.contact_id = c.id
       left join public.contact_notifications n on n.contact_id = c.id
      where c.id > $1 order by c.id`,
    [afterId],
  );
  return result.rows;
}

const SETTINGS = [
  "window_seconds",
  "unproved_per_address",
  "unproved_in_all",
  "one_by_one_per_address",
  "one_by_one_per_address_burst",
  "one_by_one_refill_seconds",
  "one_by_one_in_all",
  "base_difficulty",
  "challenges_at_base_difficulty",
  "challenges_per_doubling",
  "challenges_per_address",
  "hold_for_proof_seconds",
  "digest_interval_seconds",
  "digest_list_limit",
] as const;
export type ScreeningSettingsRow = Record<(typeof SETTINGS)[number], number>;

/** Every budget, window and interval in force (private.screening_settings). */
export async function screeningSettings(db: PGlite): Promise<ScreeningSettingsRow> {
  return (
    await db.query<ScreeningSettingsRow>(
      `select ${SETTINGS.join(", ")} from private.screening_settings`,
    )
  ).rows[0]!;
}

/** A stored request that will get no further e-mail: notified, or in a digest already sent. */
const FINAL = new Set(["delivered", "digested", "skipped"]);

export interface WaitOutcome {
  requests: StoredRequest[];
  /** Stored requests that never reached staff although their digest went out (past its list's limit). */
  unlisted: StoredRequest[];
  /** Stored requests still waiting at the deadline. */
  waiting: StoredRequest[];
  /** Date.now() when the wait ended. */
  endedAt: number;
}

/**
 * Waits until every request stored after `afterId` has reached staff or never will, or until
 * `deadline` (Date.now()). Prints a line every `reportEveryMs`.
 */
export async function waitForStaff(
  db: PGlite,
  mail: StaffMail,
  afterId: number,
  deadline: number,
  log: (line: string) => void,
  reportEveryMs = 120_000,
): Promise<WaitOutcome> {
  let lastReport = Date.now();
  for (;;) {
    mail.look();
    const requests = await requestsSince(db, afterId);
    const open = requests.filter((request) => !mail.reached(request.email));
    const waiting = open.filter((request) => !FINAL.has(request.notification ?? ""));
    if (waiting.length === 0 || Date.now() >= deadline) {
      return {
        requests,
        unlisted: open.filter((request) => FINAL.has(request.notification ?? "")),
        waiting,
        endedAt: Date.now(),
      };
    }
    if (Date.now() - lastReport >= reportEveryMs) {
      lastReport = Date.now();
      const byState = new Map<string, number>();
      for (const request of waiting)
        byState.set(
          request.notification ?? "none",
          (byState.get(request.notification ?? "none") ?? 0) + 1,
        );
      const states = [...byState].map(([state, n]) => `${n} ${state}`).join(", ");
      log(
        `${requests.length - open.length}/${requests.length} stored requests have reached staff; waiting: ${states}; ${Math.ceil((deadline - Date.now()) / 60_000)} min left at most`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}
