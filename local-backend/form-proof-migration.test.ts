/**
 * The page-proof migration (supabase/migrations/20261124100000_form_proof.sql) on PGlite: the
 * challenge is ALTCHA v1 (altcha-lib solves and verifies it), its HMAC is RFC 2104's (Node's
 * crypto agrees), a proof counts once and only while its challenge lasts, a pending ticket is
 * recognised by its shape, a confirmation reaches private.form_proof_confirmed (a stub here until
 * the screening migration defines it), and anon may execute the two RPCs and nothing else.
 * The Vault branch runs on a stand-in `vault` schema with Vault's two entry points.
 */
import crypto from "node:crypto";

import { PGlite, type Transaction } from "@electric-sql/pglite";
import { createChallenge, solveChallenge, verifySolution } from "altcha-lib/v1";

import { FORM_PROOF_REUSE_MS, formProofPayload, type FormChallenge } from "../src/lib/form-proof";
import { applyMigrations, openDatabase } from "./database";
import { defaultMigrationsDir } from "./paths";
import { asRole, rejection } from "./test-helpers";

jest.setTimeout(90_000);

let db: PGlite;
let secret: string;

/** Until the screening migration defines it: records each ticket hash it is given. */
const CONFIRMED_STUB_SQL = `
  create table if not exists private.confirmed_calls (ticket_hash text not null);
  create or replace function private.form_proof_confirmed(ticket_hash text)
    returns boolean language sql volatile set search_path = ''
  as $$ insert into private.confirmed_calls values (ticket_hash) returning true $$;
  revoke all on function private.form_proof_confirmed(text) from public, anon, authenticated;
`;

beforeAll(async () => {
  ({ db } = await openDatabase());
  await db.exec(CONFIRMED_STUB_SQL);
  secret = (await db.query<{ secret: string }>("select secret from private.form_proof_key")).rows[0]!.secret;
});

afterAll(async () => {
  await db?.close();
});

const sha256Hex = (text: string): string => crypto.createHash("sha256").update(text).digest("hex");

const asAnon = <T>(task: (tx: Transaction) => Promise<T>, on: PGlite = db): Promise<T> => asRole(on, "anon", task);

async function issue(on: PGlite = db): Promise<FormChallenge> {
  const result = await asAnon((tx) => tx.query<{ challenge: FormChallenge }>("select public.form_challenge() as challenge"), on);
  return result.rows[0]!.challenge;
}

/** Solves like the page (salt + 0, 1, 2, ... until the hash matches), with Node's synchronous hash to keep the tests quick. */
async function solve(challenge: FormChallenge): Promise<string> {
  for (let number = 0; number <= challenge.maxnumber; number += 1) {
    if (sha256Hex(`${challenge.salt}${number}`) === challenge.challenge) return formProofPayload(challenge, number);
  }
  throw new Error("no solution");
}

/** The verdict inside an anon insert's transaction, the way the screening trigger asks (as owner). */
async function verdict(header: string | null, on: PGlite = db): Promise<string> {
  const result = await on.query<{ verdict: string }>("select private.form_proof_verdict($1) as verdict", [header]);
  return result.rows[0]!.verdict;
}

async function confirm(ticket: string, proof: string): Promise<boolean> {
  const result = await asAnon((tx) => tx.query<{ ok: boolean }>("select public.confirm_form_proof(ticket => $1, proof => $2) as ok", [ticket, proof]));
  return result.rows[0]!.ok;
}

async function confirmedCalls(): Promise<string[]> {
  return (await db.query<{ ticket_hash: string }>("select ticket_hash from private.confirmed_calls")).rows.map((row) => row.ticket_hash);
}

const ticket = (): string => crypto.randomBytes(16).toString("hex");
const b64 = (text: string): string => Buffer.from(text).toString("base64");

/** A challenge made by altcha-lib itself with our secret (and our salt shape), solved. */
async function altchaPayload(options: { expiresAt: Date; key?: string; number?: number }): Promise<string> {
  const salt = `${crypto.randomBytes(16).toString("hex")}?expires=${Math.floor(options.expiresAt.getTime() / 1000)}`;
  const made = await createChallenge({ hmacKey: options.key ?? secret, number: options.number ?? 1234, salt, maxnumber: 50_000 });
  return formProofPayload(made, options.number ?? 1234);
}

describe("form_challenge", () => {
  test("issues an ALTCHA v1 challenge that altcha-lib solves and verifies with the secret", async () => {
    const challenge = await issue();
    expect(Object.keys(challenge).sort()).toEqual(["algorithm", "challenge", "maxnumber", "salt", "signature"]);
    expect(challenge.algorithm).toBe("SHA-256");
    expect(challenge.challenge).toMatch(/^[0-9a-f]{64}$/);
    expect(challenge.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(challenge.salt).toMatch(/^[0-9a-f]{32}\?expires=\d{10}&$/);
    const solution = await solveChallenge(challenge.challenge, challenge.salt, challenge.algorithm, challenge.maxnumber).promise;
    const payload = formProofPayload(challenge, solution!.number);
    expect(payload).toBe(await solve(challenge));
    expect(await verifySolution(payload, secret)).toBe(true);
    expect(await verifySolution(payload, `${secret}x`)).toBe(false);
  });

  test("lasts longer than the page reuses a proof, with room for a slow visitor's network", async () => {
    const challenge = await issue();
    const expires = Number(/expires=(\d+)/.exec(challenge.salt)![1]) * 1000;
    expect(expires - Date.now()).toBeGreaterThan(FORM_PROOF_REUSE_MS + 5 * 60_000);
    expect(expires - Date.now()).toBeLessThanOrEqual(30 * 60_000 + 1000);
  });

  test("draws a different salt and number each time, and stores nothing", async () => {
    const spentBefore = await db.query("select * from private.form_proofs_spent");
    const challenges = await Promise.all(Array.from({ length: 20 }, () => issue()));
    expect(new Set(challenges.map((c) => c.salt)).size).toBe(20);
    expect(new Set(challenges.map((c) => c.challenge)).size).toBe(20);
    const numbers = await Promise.all(challenges.slice(0, 5).map(async (c) => JSON.parse(Buffer.from(await solve(c), "base64").toString()).number as number));
    expect(new Set(numbers).size).toBeGreaterThan(1);
    expect((await db.query("select * from private.form_proofs_spent")).rows).toEqual(spentBefore.rows);
  });
});

describe("the HMAC built from sha256", () => {
  test.each([1, 20, 63, 64, 65, 200])("equals RFC 2104 HMAC-SHA-256 (Node's crypto) for a %i-byte key", async (keyLength) => {
    const key = crypto.randomBytes(keyLength);
    for (const message of ["", "a", "x".repeat(64), "x".repeat(500), "Zoë 🚌"]) {
      const result = await db.query<{ mac: string }>("select encode(private.hmac_sha256($1, convert_to($2, 'UTF8')), 'hex') as mac", [key, message]);
      expect(result.rows[0]!.mac).toBe(crypto.createHmac("sha256", key).update(message).digest("hex"));
    }
  });
});

describe("form_proof_verdict", () => {
  test("a solved challenge is verified once; the same payload again is invalid", async () => {
    const payload = await solve(await issue());
    expect(await verdict(payload)).toBe("verified");
    expect(await verdict(payload)).toBe("invalid");
  });

  test("a proof spent in a transaction that is rolled back (a refused insert) can be used again", async () => {
    const payload = await solve(await issue());
    await rejection(
      db.transaction(async (tx) => {
        await tx.query("select private.form_proof_verdict($1)", [payload]);
        throw new Error("insert refused");
      }),
    );
    expect(await verdict(payload)).toBe("verified");
  });

  test("a challenge made by altcha-lib with the same secret and salt shape is verified (interoperable)", async () => {
    expect(await verdict(await altchaPayload({ expiresAt: new Date(Date.now() + 60_000) }))).toBe("verified");
  });

  test("expired, signed with another key, or the wrong number: invalid", async () => {
    expect(await verdict(await altchaPayload({ expiresAt: new Date(Date.now() - 1000) }))).toBe("invalid");
    expect(await verdict(await altchaPayload({ expiresAt: new Date(Date.now() + 60_000), key: "another secret of 32 characters!" }))).toBe("invalid");
    const challenge = await issue();
    const payload = JSON.parse(Buffer.from(await solve(challenge), "base64").toString()) as Record<string, unknown>;
    const wrongNumber = { ...payload, number: ((payload.number as number) + 1) % 50_001 };
    expect(await verdict(b64(JSON.stringify(wrongNumber)))).toBe("invalid");
    expect(await verdict(b64(JSON.stringify(payload)))).toBe("verified");
  });

  test("a salt not exactly as issued is refused even when salt + number hash the same (parameter splicing)", async () => {
    const good = JSON.parse(Buffer.from(await altchaPayload({ expiresAt: new Date(Date.now() + 60_000), number: 12345 }), "base64").toString());
    // salt + number is the same text, so the challenge and signature still match; only the
    // salt's fixed shape (ending in '&') refuses it.
    const spliced = { ...good, salt: `${good.salt}1`, number: 2345 };
    expect(`${spliced.salt}${spliced.number}`).toBe(`${good.salt}${good.number}`);
    expect(await verdict(b64(JSON.stringify(spliced)))).toBe("invalid");
    expect(await verdict(b64(JSON.stringify(good)))).toBe("verified");
  });

  test.each([
    ["not base64", "%%%not base64%%%"],
    ["base64 of text", b64("hello")],
    ["a JSON array", b64("[1,2,3]")],
    ["JSON null", b64("null")],
    ["SHA-512", b64(JSON.stringify({ algorithm: "SHA-512", challenge: "0".repeat(64), number: 1, salt: `${"0".repeat(32)}?expires=9999999999&`, signature: "0".repeat(64) }))],
    ["number as text", b64(JSON.stringify({ algorithm: "SHA-256", challenge: "0".repeat(64), number: "1", salt: `${"0".repeat(32)}?expires=9999999999&`, signature: "0".repeat(64) }))],
    ["number above maxnumber", b64(JSON.stringify({ algorithm: "SHA-256", challenge: "0".repeat(64), number: 50_001, salt: `${"0".repeat(32)}?expires=9999999999&`, signature: "0".repeat(64) }))],
    ["a fraction", b64(JSON.stringify({ algorithm: "SHA-256", challenge: "0".repeat(64), number: 1.5, salt: `${"0".repeat(32)}?expires=9999999999&`, signature: "0".repeat(64) }))],
    ["fields missing", b64(JSON.stringify({ algorithm: "SHA-256", number: 1 }))],
    ["very long", "A".repeat(5000)],
    ["pending without a ticket", "pending:"],
    ["pending with upper-case hex", `pending:${"A".repeat(32)}`],
    ["pending with 31 characters", `pending:${"a".repeat(31)}`],
    ["pending with 33 characters", `pending:${"a".repeat(33)}`],
    ["pending with a line break", `pending:${"a".repeat(32)}\n`],
  ])("garbage is invalid: %s", async (_label, header) => {
    expect(await verdict(header)).toBe("invalid");
  });

  test("pending:<32 lowercase hex> is pending; null or empty is missing", async () => {
    expect(await verdict(`pending:${ticket()}`)).toBe("pending");
    expect(await verdict(null)).toBe("missing");
    expect(await verdict("")).toBe("missing");
  });

  test("expired spent proofs are pruned when another proof is spent", async () => {
    await db.query("insert into private.form_proofs_spent values ('old', now() - interval '1 second'), ('current', now() + interval '1 minute')");
    expect(await verdict(await solve(await issue()))).toBe("verified");
    const left = (await db.query<{ challenge: string }>("select challenge from private.form_proofs_spent where challenge in ('old', 'current')")).rows;
    expect(left).toEqual([{ challenge: "current" }]);
  });
});

describe("form_proof_ticket_hash", () => {
  test("is the hex sha256 of a well-formed ticket, else null", async () => {
    const t = ticket();
    const hash = async (header: string | null) =>
      (await db.query<{ hash: string | null }>("select private.form_proof_ticket_hash($1) as hash", [header])).rows[0]!.hash;
    expect(await hash(`pending:${t}`)).toBe(sha256Hex(t));
    expect(await hash(t)).toBeNull();
    expect(await hash(`pending:${t.toUpperCase()}`)).toBeNull();
    expect(await hash(null)).toBeNull();
  });
});

describe("confirm_form_proof", () => {
  beforeEach(async () => {
    await db.query("delete from private.confirmed_calls");
  });

  test("a valid proof passes the ticket's hash to form_proof_confirmed and returns its answer, once", async () => {
    const t = ticket();
    const payload = await solve(await issue());
    expect(await confirm(t, payload)).toBe(true);
    expect(await confirmedCalls()).toEqual([sha256Hex(t)]);
    expect(await confirm(t, payload)).toBe(false); // spent
    expect(await confirmedCalls()).toEqual([sha256Hex(t)]);
  });

  test("returns form_proof_confirmed's false (e.g. no such pending request)", async () => {
    await db.exec("create or replace function private.form_proof_confirmed(ticket_hash text) returns boolean language sql set search_path = '' as $$ select false $$");
    try {
      expect(await confirm(ticket(), await solve(await issue()))).toBe(false);
    } finally {
      await db.exec(CONFIRMED_STUB_SQL);
    }
  });

  test("a forged proof or a malformed ticket confirms nothing", async () => {
    expect(await confirm(ticket(), await altchaPayload({ expiresAt: new Date(Date.now() + 60_000), key: "another secret of 32 characters!" }))).toBe(false);
    expect(await confirm(ticket(), "garbage")).toBe(false);
    const payload = await solve(await issue());
    expect(await confirm("not a ticket", payload)).toBe(false);
    expect(await confirm(`${ticket()}`.toUpperCase(), payload)).toBe(false);
    expect(await confirmedCalls()).toEqual([]);
    expect(await verdict(payload)).toBe("verified"); // a malformed ticket did not spend the proof
  });
});

describe("privileges", () => {
  test("anon may execute the two RPCs and nothing else of the page proof; the secret stays out of reach", async () => {
    const executable = await db.query<{ fn: string }>(
      `select p.oid::regprocedure::text as fn
         from pg_catalog.pg_proc p join pg_catalog.pg_namespace n on n.oid = p.pronamespace
        where n.nspname in ('public', 'private') and (p.proname like '%form%proof%' or p.proname like '%form_challenge%' or p.proname like 'hmac%')
          and pg_catalog.has_function_privilege('anon', p.oid, 'EXECUTE')
        order by 1`,
    );
    expect(executable.rows.map((row) => row.fn)).toEqual(["confirm_form_proof(text,text)", "form_challenge()"]);
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
    for (const sql of ["update private.form_challenge_desk set challenge = null", "delete from private.form_proof_confirmations"]) {
      expect(["42501", "55000"]).toContain((await rejection(asAnon((tx) => tx.query(sql)))).code);
    }
    // The desks anon inserts into (through the RPCs) cannot be read (pg_graphql would list what anon may select).
    for (const sql of ["select * from private.form_challenge_desk", "select * from private.form_proof_confirmations"]) {
      expect((await rejection(asAnon((tx) => tx.query(sql)))).code).toBe("42501");
    }
  });
});

describe("with Supabase Vault (a stand-in with Vault's decrypted_secrets view and create_secret)", () => {
  const STAND_IN_VAULT = `
    create schema vault;
    create table vault.secrets (id uuid primary key default gen_random_uuid(), name text unique, secret text not null, description text);
    create view vault.decrypted_secrets as select id, name, description, secret as decrypted_secret from vault.secrets;
    create function vault.create_secret(new_secret text, new_name text default null, new_description text default '')
      returns uuid language sql as $$ insert into vault.secrets (name, secret, description) values (new_name, new_secret, new_description) returning id $$;
  `;
  let hosted: PGlite;

  beforeAll(async () => {
    hosted = await PGlite.create();
    await hosted.exec(STAND_IN_VAULT);
    await applyMigrations(hosted, defaultMigrationsDir());
  });
  afterAll(async () => {
    await hosted?.close();
  });

  const vaultSecret = async () =>
    (await hosted.query<{ decrypted_secret: string }>("select decrypted_secret from vault.decrypted_secrets where name = 'form_proof_secret'")).rows;

  test("the migration creates the secret in Vault (256 random bits as hex) and no private table", async () => {
    const rows = await vaultSecret();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.decrypted_secret).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]!.decrypted_secret).not.toBe(secret);
    expect((await hosted.query("select pg_catalog.to_regclass('private.form_proof_key') as t")).rows).toEqual([{ t: null }]);
  });

  test("challenges are signed with the Vault secret; rotating it retires outstanding proofs", async () => {
    const challenge = await issue(hosted);
    const payload = await solve(challenge);
    expect(await verifySolution(payload, (await vaultSecret())[0]!.decrypted_secret)).toBe(true);
    const before = await solve(await issue(hosted));
    await hosted.query("update vault.secrets set secret = $1 where name = 'form_proof_secret'", [crypto.randomBytes(32).toString("hex")]);
    expect(await verdict(before, hosted)).toBe("invalid");
    expect(await verdict(await solve(await issue(hosted)), hosted)).toBe("verified");
  });

  test("an existing Vault secret is kept by the migration", async () => {
    const fresh = await PGlite.create();
    try {
      await fresh.exec(STAND_IN_VAULT);
      await fresh.query("select vault.create_secret('an existing secret, made by staff, 32+ chars', 'form_proof_secret')");
      await applyMigrations(fresh, defaultMigrationsDir());
      const rows = await fresh.query<{ n: number }>("select count(*)::int as n from vault.secrets where name = 'form_proof_secret'");
      expect(rows.rows[0]!.n).toBe(1);
      expect(await verifySolution(await solve(await issue(fresh)), "an existing secret, made by staff, 32+ chars")).toBe(true);
    } finally {
      await fresh.close();
    }
  });

  test("without the secret, issuing a challenge fails with a message that says what is missing", async () => {
    await hosted.query("delete from vault.secrets where name = 'form_proof_secret'");
    const error = await rejection(issue(hosted));
    expect(error.message).toBe("form proof: the secret form_proof_secret is missing");
  });
});
