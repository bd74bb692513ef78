/**
 * The page proof (migrations …02 and …03), checked against altcha-lib, which solves and verifies
 * its challenges. Vault: hosted.test.ts.
 */
import crypto from "node:crypto";

import { createChallenge, solveChallenge, verifySolution } from "altcha-lib/v1";

import {
  FORM_PROOF_REUSE_MS,
  formProofPayload,
  type FormChallenge,
} from "../../src/lib/form-proof";
import {
  asRole,
  CONFIRMED_STUB_SQL,
  rejection,
  solveFormChallenge,
} from "../../local-backend/test-support/helpers";
import { migrated, one } from "./harness";

jest.setTimeout(90_000);

// private.form_proof_confirmed (the screening's) replaced by a recorder of the hashes it is given.
const db = migrated({ after: CONFIRMED_STUB_SQL });
let secret: string;
beforeAll(async () => {
  secret = await one(db(), "select private.secret('form_proof_secret') as value");
});

const sha256Hex = (text: string) => crypto.createHash("sha256").update(text).digest("hex");
const ticket = () => crypto.randomBytes(16).toString("hex");
const b64 = (value: unknown) =>
  Buffer.from(typeof value === "string" ? value : JSON.stringify(value)).toString("base64");
const decoded = (payload: string) =>
  JSON.parse(Buffer.from(payload, "base64").toString()) as Record<string, unknown>;

const asAnon = <T>(sql: string, params: unknown[] = []) =>
  asRole(db(), "anon", async (tx) => (await tx.query<{ value: T }>(sql, params)).rows[0]!.value);
const issue = () => asAnon<FormChallenge>("select public.form_challenge() as value");
const confirm = (t: string, proof: string) =>
  asAnon<boolean>("select public.confirm_form_proof(ticket => $1, proof => $2) as value", [
    t,
    proof,
  ]);
/** The verdict, as the screening trigger asks for it (as the owner). */
const verdict = (header: string | null) =>
  one<string>(db(), "select private.form_proof_verdict($1) as value", [header]);
const confirmedCalls = async () =>
  (
    await db().query<{ ticket_hash: string }>("select ticket_hash from private.confirmed_calls")
  ).rows.map((row) => row.ticket_hash);

/** A challenge made by altcha-lib itself with our secret (and our salt shape), solved. */
async function altchaPayload(options: { expiresIn: number; key?: string; number?: number }) {
  const number = options.number ?? 1234;
  const expires = Math.floor((Date.now() + options.expiresIn) / 1000);
  const made = await createChallenge({
    hmacKey: options.key ?? secret,
    number,
    salt: `${crypto.randomBytes(16).toString("hex")}?expires=${expires}`,
    maxnumber: 50_000,
  });
  return formProofPayload(made, number);
}
const otherKeyPayload = () =>
  altchaPayload({ expiresIn: 60_000, key: "another secret of 32 characters!" });

describe("form_challenge", () => {
  test("issues an ALTCHA v1 challenge that altcha-lib solves and verifies with the secret", async () => {
    const challenge = await issue();
    expect(Object.keys(challenge).sort().join()).toBe(
      "algorithm,challenge,maxnumber,salt,signature",
    );
    expect(challenge).toMatchObject({
      algorithm: "SHA-256",
      challenge: expect.stringMatching(/^[0-9a-f]{64}$/) as unknown,
      signature: expect.stringMatching(/^[0-9a-f]{64}$/) as unknown,
      salt: expect.stringMatching(/^[0-9a-f]{32}\?expires=\d{10}&$/) as unknown,
    });
    const { number } = (await solveChallenge(
      challenge.challenge,
      challenge.salt,
      challenge.algorithm,
      challenge.maxnumber,
    ).promise)!;
    const payload = formProofPayload(challenge, number);
    expect(payload).toBe(solveFormChallenge(challenge));
    expect(await verifySolution(payload, secret)).toBe(true);
    expect(await verifySolution(payload, `${secret}x`)).toBe(false);
  });

  test("lasts longer than the page reuses a proof, with room for a slow visitor's network", async () => {
    const expires = Number(/expires=(\d+)/.exec((await issue()).salt)![1]) * 1000;
    expect(expires - Date.now()).toBeGreaterThan(FORM_PROOF_REUSE_MS + 5 * 60_000);
    expect(expires - Date.now()).toBeLessThanOrEqual(30 * 60_000 + 1000);
  });

  test("draws a different salt and number each time, and spends nothing", async () => {
    const spent = "select * from private.form_proofs_spent";
    const before = (await db().query(spent)).rows;
    const challenges = await Promise.all(Array.from({ length: 20 }, issue));
    expect(new Set(challenges.map((c) => c.salt)).size).toBe(20);
    expect(new Set(challenges.map((c) => c.challenge)).size).toBe(20);
    const numbers = challenges.slice(0, 5).map((c) => decoded(solveFormChallenge(c)).number);
    expect(new Set(numbers).size).toBeGreaterThan(1);
    expect((await db().query(spent)).rows).toEqual(before);
  });

  test.each([1, 20, 63, 64, 65, 200])(
    "its HMAC equals Node's for a %i-byte key",
    async (length) => {
      const key = crypto.randomBytes(length);
      for (const message of ["", "a", "x".repeat(64), "x".repeat(500), "Zoë 🚌"]) {
        const mac = await one(
          db(),
          "select encode(private.hmac_sha256($1, convert_to($2, 'UTF8')), 'hex') as value",
          [key, message],
        );
        expect(mac).toBe(crypto.createHmac("sha256", key).update(message).digest("hex"));
      }
    },
  );
});

describe("form_proof_verdict", () => {
  test("a solved challenge is verified once; a proof spent in a rolled-back insert can be used again", async () => {
    const payload = solveFormChallenge(await issue());
    await rejection(
      db().transaction(async (tx) => {
        await tx.query("select private.form_proof_verdict($1)", [payload]);
        throw new Error("insert refused");
      }),
    );
    expect(await verdict(payload)).toBe("verified");
    expect(await verdict(payload)).toBe("invalid");
  });

  test("altcha-lib's own challenge with our secret and salt shape is verified; expired, another key, the wrong number are not", async () => {
    expect(await verdict(await altchaPayload({ expiresIn: 60_000 }))).toBe("verified");
    expect(await verdict(await altchaPayload({ expiresIn: -1000 }))).toBe("invalid");
    expect(await verdict(await otherKeyPayload())).toBe("invalid");
    const payload = decoded(solveFormChallenge(await issue()));
    expect(
      await verdict(b64({ ...payload, number: ((payload.number as number) + 1) % 50_001 })),
    ).toBe("invalid");
    expect(await verdict(b64(payload))).toBe("verified");
  });

  test("a salt not exactly as issued is refused even when salt + number hash the same (parameter splicing)", async () => {
    const good = decoded(await altchaPayload({ expiresIn: 60_000, number: 12345 }));
    const spliced = { ...good, salt: `${good.salt as string}1`, number: 2345 };
    expect(`${spliced.salt}${spliced.number}`).toBe(
      `${good.salt as string}${good.number as number}`,
    );
    expect(await verdict(b64(spliced))).toBe("invalid");
    expect(await verdict(b64(good))).toBe("verified");
  });

  const forged = (fields: Record<string, unknown>) =>
    b64({
      algorithm: "SHA-256",
      challenge: "0".repeat(64),
      number: 1,
      salt: `${"0".repeat(32)}?expires=9999999999&`,
      signature: "0".repeat(64),
      ...fields,
    });

  test.each([
    ["not base64", "%%%not base64%%%"],
    ["base64 of text", b64("hello")],
    ["a JSON array", b64("[1,2,3]")],
    ["JSON null", b64("null")],
    ["SHA-512", forged({ algorithm: "SHA-512" })],
    ["number as text", forged({ number: "1" })],
    ["a fraction", forged({ number: 1.5 })],
    ["number above maxnumber", forged({ number: 2 ** 31 })],
    ["fields missing", b64({ algorithm: "SHA-256", number: 1 })],
    ["very long", "A".repeat(5000)],
    ["pending without a ticket", "pending:"],
    ["pending with upper-case hex", `pending:${"A".repeat(32)}`],
    ["pending with 31 characters", `pending:${"a".repeat(31)}`],
    ["pending with 33 characters", `pending:${"a".repeat(33)}`],
    ["pending with a line break", `pending:${"a".repeat(32)}\n`],
  ])("garbage is invalid: %s", async (_label, header) => {
    expect(await verdict(header)).toBe("invalid");
  });

  test("pending:<32 lowercase hex> is pending, and its hash is the ticket's sha256; null or empty is missing", async () => {
    const t = ticket();
    expect(await verdict(`pending:${t}`)).toBe("pending");
    expect(await verdict(null)).toBe("missing");
    expect(await verdict("")).toBe("missing");
    const hash = (header: string | null) =>
      one(db(), "select private.form_proof_ticket_hash($1) as value", [header]);
    expect(await hash(`pending:${t}`)).toBe(sha256Hex(t));
    for (const header of [t, `pending:${t.toUpperCase()}`, null])
      expect(await hash(header)).toBeNull();
  });

  test("expired spent proofs are pruned when another proof is spent", async () => {
    await db().query(
      "insert into private.form_proofs_spent values ('old', now() - interval '1 second'), ('current', now() + interval '1 minute')",
    );
    expect(await verdict(solveFormChallenge(await issue()))).toBe("verified");
    const left = await db().query(
      "select challenge from private.form_proofs_spent where challenge in ('old', 'current')",
    );
    expect(left.rows).toEqual([{ challenge: "current" }]);
  });
});

describe("confirm_form_proof", () => {
  beforeEach(() => db().query("delete from private.confirmed_calls"));

  test("a valid proof passes the ticket's hash to form_proof_confirmed and returns its answer, once", async () => {
    const t = ticket();
    const payload = solveFormChallenge(await issue());
    expect(await confirm(t, payload)).toBe(true);
    expect(await confirm(t, payload)).toBe(false); // spent
    expect(await confirmedCalls()).toEqual([sha256Hex(t)]);
    await db().exec(
      "create or replace function private.form_proof_confirmed(ticket_hash text) returns boolean language sql set search_path = '' as $$ select false $$",
    );
    try {
      expect(await confirm(ticket(), solveFormChallenge(await issue()))).toBe(false); // e.g. no such pending request
    } finally {
      await db().exec(CONFIRMED_STUB_SQL);
    }
  });

  test("a forged proof or a malformed ticket confirms nothing, and a malformed ticket spends nothing", async () => {
    expect(await confirm(ticket(), await otherKeyPayload())).toBe(false);
    expect(await confirm(ticket(), "garbage")).toBe(false);
    const payload = solveFormChallenge(await issue());
    expect(await confirm("not a ticket", payload)).toBe(false);
    expect(await confirm(ticket().toUpperCase(), payload)).toBe(false);
    expect(await confirmedCalls()).toEqual([]);
    expect(await verdict(payload)).toBe("verified");
  });
});
