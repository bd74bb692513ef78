/**
 * Shared by the screening's tests (screening-*.test.ts; not a test file itself): the migrated
 * database on PGlite, emptied before each test, and a visitor's and staff's steps on it
 * (supabase/migrations/20261124110000_request_screening.sql and the budgets of 20261126*).
 */
import type { Transaction } from "@electric-sql/pglite";

import {
  asRole,
  asVisitor,
  goodRow,
  insertAs,
  migratedDatabase,
  pageProof,
  visitorHeaders,
  type ContactRow,
  type DigestClaim,
} from "./test-helpers";

export interface Screened {
  verdict: string;
  proof: string;
  signals: string[];
  status: string;
  priority: number;
}

/** Opens the migrated database before the calling file's tests, empties it before each, closes it after. */
export function screeningDatabase() {
  const db = migratedDatabase();

  beforeEach(async () => {
    // Each test starts with no requests, and no address has used its budgets (20261126110000).
    await db()
      .exec(`delete from public.contacts; delete from public.contact_notifications; delete from public.contact_digests;
                   delete from private.one_by_one_pace; delete from private.form_challenges_issued;`);
  });

  const asService = <T>(task: (tx: Transaction) => Promise<T>): Promise<T> =>
    asRole(db(), "service_role", task);

  const send = async (row: ContactRow, address: string, proof?: string): Promise<number> => {
    await asVisitor(
      db(),
      visitorHeaders(address, proof === undefined ? {} : { "x-form-proof": proof }),
      (tx) => insertAs(tx, row),
    );
    return (await db().query<{ id: number }>("select max(id)::int as id from public.contacts"))
      .rows[0]!.id;
  };

  return {
    db,
    asService,
    send,
    /** A fresh proof per request: a real one is spent by its first use. */
    sendVerified: async (row: ContactRow = goodRow(), address = "198.51.100.7"): Promise<number> =>
      send(row, address, await pageProof(db())),
    screened: async (id: number): Promise<Screened> =>
      (
        await db().query<Screened>(
          `select s.verdict, s.proof, s.signals, n.status, n.priority
             from public.contact_screening s join public.contact_notifications n using (contact_id)
            where s.contact_id = $1`,
          [id],
        )
      ).rows[0]!,
    signalsOf: async (row: ContactRow): Promise<string[]> =>
      (
        await db().query<{ signals: string[] }>(
          "select private.content_signals($1, $2, $3) as signals",
          [row.name, row.organization, row.message],
        )
      ).rows[0]!.signals,
    claimDigest: async (leaseSeconds = 60): Promise<DigestClaim[]> =>
      (
        await asService((tx) =>
          tx.query<DigestClaim>("select * from public.claim_contact_digest(lease_seconds => $1)", [
            leaseSeconds,
          ]),
        )
      ).rows,
    finishDigest: async (id: number, lease: string, failure: string | null): Promise<boolean> =>
      (
        await asService((tx) =>
          tx.query<{ recorded: boolean }>(
            "select recorded from public.finish_contact_digest(digest_id => $1, lease => $2, failure => $3, retry_in_seconds => 0)",
            [id, lease, failure],
          ),
        )
      ).rows[0]!.recorded,
  };
}
