/**
 * The page-proof migration on PGlite, privileges: anon may execute the two RPCs and nothing else of
 * the page proof, and cannot read the secret or the desks.
 */
import { formProofMigration } from "./form-proof-migration-harness";
import { rejection } from "./test-helpers";

jest.setTimeout(90_000);

const migration = formProofMigration();
const { asAnon } = migration;

describe("privileges", () => {
  test("anon may execute the two RPCs and nothing else of the page proof; the secret stays out of reach", async () => {
    const executable = await migration.db.query<{ fn: string }>(
      `select p.oid::regprocedure::text as fn
         from pg_catalog.pg_proc p join pg_catalog.pg_namespace n on n.oid = p.pronamespace
        where n.nspname in ('public', 'private') and (p.proname like '%form%proof%' or p.proname like '%form_challenge%' or p.proname like 'hmac%')
          and pg_catalog.has_function_privilege('anon', p.oid, 'EXECUTE')
        order by 1`,
    );
    expect(executable.rows.map((row) => row.fn)).toEqual([
      "confirm_form_proof(text,text)",
      "form_challenge()",
    ]);
    for (const sql of [
      "select * from private.form_proof_key",
      "select * from private.form_proofs_spent",
      "select private.form_proof_secret()",
      "select private.form_proof_verdict('x')",
      "select private.form_proof_ticket_hash('x')",
      "select private.hmac_sha256('\\x00', '\\x00')",
    ]) {
      expect((await rejection(asAnon((tx) => tx.query(sql)))).code).toBe("42501");
    }
    // The desks take inserts only (55000: a view without an UPDATE or DELETE rule or trigger).
    for (const sql of [
      "update private.form_challenge_desk set challenge = null",
      "delete from private.form_proof_confirmations",
    ]) {
      expect(["42501", "55000"]).toContain((await rejection(asAnon((tx) => tx.query(sql)))).code);
    }
    // The desks anon inserts into (through the RPCs) cannot be read (pg_graphql would list what anon may select).
    for (const sql of [
      "select * from private.form_challenge_desk",
      "select * from private.form_proof_confirmations",
    ]) {
      expect((await rejection(asAnon((tx) => tx.query(sql)))).code).toBe("42501");
    }
  });
});
