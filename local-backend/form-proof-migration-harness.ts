/**
 * Shared by the page-proof migration tests (form-proof-migration-*.test.ts; not a test file
 * itself): the migrated database on PGlite, with private.form_proof_confirmed stubbed until the
 * screening migration defines it, and the page's steps (issue, solve, verdict, confirm) on it.
 */
import crypto from "node:crypto";

import type { PGlite, Transaction } from "@electric-sql/pglite";
import { createChallenge } from "altcha-lib/v1";

import { formProofPayload, type FormChallenge } from "../src/lib/form-proof";
import { asRole, CONFIRMED_STUB_SQL, migratedDatabase } from "./test-helpers";

export const sha256Hex = (text: string): string =>
  crypto.createHash("sha256").update(text).digest("hex");

export const ticket = (): string => crypto.randomBytes(16).toString("hex");
export const b64 = (text: string): string => Buffer.from(text).toString("base64");

/** Opens the migrated database before the calling file's tests and closes it after them. */
export function formProofMigration() {
  let secret: string;
  const db = migratedDatabase(async (migrated) => {
    await migrated.exec(CONFIRMED_STUB_SQL);
    secret = (await migrated.query<{ secret: string }>("select secret from private.form_proof_key"))
      .rows[0]!.secret;
  });

  const asAnon = <T>(task: (tx: Transaction) => Promise<T>, on: PGlite = db()): Promise<T> =>
    asRole(on, "anon", task);

  async function issue(on: PGlite = db()): Promise<FormChallenge> {
    const result = await asAnon(
      (tx) => tx.query<{ challenge: FormChallenge }>("select public.form_challenge() as challenge"),
      on,
    );
    return result.rows[0]!.challenge;
  }

  /** The verdict inside an anon insert's transaction, the way the screening trigger asks (as owner). */
  async function verdict(header: string | null, on: PGlite = db()): Promise<string> {
    const result = await on.query<{ verdict: string }>(
      "select private.form_proof_verdict($1) as verdict",
      [header],
    );
    return result.rows[0]!.verdict;
  }

  async function confirm(ticket: string, proof: string): Promise<boolean> {
    const result = await asAnon((tx) =>
      tx.query<{ ok: boolean }>(
        "select public.confirm_form_proof(ticket => $1, proof => $2) as ok",
        [ticket, proof],
      ),
    );
    return result.rows[0]!.ok;
  }

  async function confirmedCalls(): Promise<string[]> {
    return (
      await db().query<{ ticket_hash: string }>("select ticket_hash from private.confirmed_calls")
    ).rows.map((row) => row.ticket_hash);
  }

  /** A challenge made by altcha-lib itself with our secret (and our salt shape), solved. */
  async function altchaPayload(options: {
    expiresAt: Date;
    key?: string;
    number?: number;
  }): Promise<string> {
    const salt = `${crypto.randomBytes(16).toString("hex")}?expires=${Math.floor(options.expiresAt.getTime() / 1000)}`;
    const made = await createChallenge({
      hmacKey: options.key ?? secret,
      number: options.number ?? 1234,
      salt,
      maxnumber: 50_000,
    });
    return formProofPayload(made, options.number ?? 1234);
  }

  return {
    get db(): PGlite {
      return db();
    },
    get secret(): string {
      return secret;
    },
    asAnon,
    issue,
    verdict,
    confirm,
    confirmedCalls,
    altchaPayload,
  };
}
