/**
 * The page-proof migration with Supabase Vault, on a stand-in `vault` schema with Vault's two entry
 * points: the secret is created in Vault (an existing one kept), challenges are signed with it,
 * rotating it retires outstanding proofs, and a missing one fails with a message that says so.
 */
import crypto from "node:crypto";

import { PGlite } from "@electric-sql/pglite";
import { verifySolution } from "altcha-lib/v1";

import { applyMigrations } from "./database";
import { formProofMigration } from "./form-proof-migration-harness";
import { defaultMigrationsDir } from "./paths";
import { openedForTests, rejection, solveFormChallenge } from "./test-helpers";

jest.setTimeout(90_000);

const migration = formProofMigration();
const { issue, verdict } = migration;

describe("with Supabase Vault (a stand-in with Vault's decrypted_secrets view and create_secret)", () => {
  const STAND_IN_VAULT = `
    create schema vault;
    create table vault.secrets (id uuid primary key default gen_random_uuid(), name text unique, secret text not null, description text);
    create view vault.decrypted_secrets as select id, name, description, secret as decrypted_secret from vault.secrets;
    create function vault.create_secret(new_secret text, new_name text default null, new_description text default '')
      returns uuid language sql as $$ insert into vault.secrets (name, secret, description) values (new_name, new_secret, new_description) returning id $$;
  `;
  const hosted = openedForTests(async () => {
    const db = await PGlite.create();
    await db.exec(STAND_IN_VAULT);
    await applyMigrations(db, defaultMigrationsDir());
    return db;
  });

  const vaultSecret = async () =>
    (
      await hosted().query<{ decrypted_secret: string }>(
        "select decrypted_secret from vault.decrypted_secrets where name = 'form_proof_secret'",
      )
    ).rows;

  test("the migration creates the secret in Vault (256 random bits as hex) and no private table", async () => {
    const rows = await vaultSecret();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.decrypted_secret).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]!.decrypted_secret).not.toBe(migration.secret);
    expect(
      (await hosted().query("select pg_catalog.to_regclass('private.form_proof_key') as t")).rows,
    ).toEqual([{ t: null }]);
  });

  test("challenges are signed with the Vault secret; rotating it retires outstanding proofs", async () => {
    const challenge = await issue(hosted());
    const payload = solveFormChallenge(challenge);
    expect(await verifySolution(payload, (await vaultSecret())[0]!.decrypted_secret)).toBe(true);
    const before = solveFormChallenge(await issue(hosted()));
    await hosted().query("update vault.secrets set secret = $1 where name = 'form_proof_secret'", [
      crypto.randomBytes(32).toString("hex"),
    ]);
    expect(await verdict(before, hosted())).toBe("invalid");
    expect(await verdict(solveFormChallenge(await issue(hosted())), hosted())).toBe("verified");
  });

  test("an existing Vault secret is kept by the migration", async () => {
    const fresh = await PGlite.create();
    try {
      await fresh.exec(STAND_IN_VAULT);
      await fresh.query(
        "select vault.create_secret('an existing secret, made by staff, 32+ chars', 'form_proof_secret')",
      );
      await applyMigrations(fresh, defaultMigrationsDir());
      const rows = await fresh.query<{ n: number }>(
        "select count(*)::int as n from vault.secrets where name = 'form_proof_secret'",
      );
      expect(rows.rows[0]!.n).toBe(1);
      expect(
        await verifySolution(
          solveFormChallenge(await issue(fresh)),
          "an existing secret, made by staff, 32+ chars",
        ),
      ).toBe(true);
    } finally {
      await fresh.close();
    }
  });

  test("without the secret, issuing a challenge fails with a message that says what is missing", async () => {
    await hosted().query("delete from vault.secrets where name = 'form_proof_secret'");
    const error = await rejection(issue(hosted()));
    expect(error.message).toBe("form proof: the secret form_proof_secret is missing");
  });
});
