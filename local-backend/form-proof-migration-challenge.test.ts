/**
 * The page-proof migration (supabase/migrations/20261124100000_form_proof.sql) on PGlite, issuing:
 * the challenge is ALTCHA v1 (altcha-lib solves and verifies it), it lasts long enough and stores
 * nothing, and its HMAC is RFC 2104's (Node's crypto agrees).
 */
import crypto from "node:crypto";

import { solveChallenge, verifySolution } from "altcha-lib/v1";

import { FORM_PROOF_REUSE_MS, formProofPayload } from "../src/lib/form-proof";
import { formProofMigration } from "./form-proof-migration-harness";
import { solveFormChallenge } from "./test-helpers";

jest.setTimeout(90_000);

const migration = formProofMigration();
const { issue } = migration;

describe("form_challenge", () => {
  test("issues an ALTCHA v1 challenge that altcha-lib solves and verifies with the secret", async () => {
    const challenge = await issue();
    expect(Object.keys(challenge).sort()).toEqual([
      "algorithm",
      "challenge",
      "maxnumber",
      "salt",
      "signature",
    ]);
    expect(challenge.algorithm).toBe("SHA-256");
    expect(challenge.challenge).toMatch(/^[0-9a-f]{64}$/);
    expect(challenge.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(challenge.salt).toMatch(/^[0-9a-f]{32}\?expires=\d{10}&$/);
    const solution = await solveChallenge(
      challenge.challenge,
      challenge.salt,
      challenge.algorithm,
      challenge.maxnumber,
    ).promise;
    const payload = formProofPayload(challenge, solution!.number);
    expect(payload).toBe(solveFormChallenge(challenge));
    expect(await verifySolution(payload, migration.secret)).toBe(true);
    expect(await verifySolution(payload, `${migration.secret}x`)).toBe(false);
  });

  test("lasts longer than the page reuses a proof, with room for a slow visitor's network", async () => {
    const challenge = await issue();
    const expires = Number(/expires=(\d+)/.exec(challenge.salt)![1]) * 1000;
    expect(expires - Date.now()).toBeGreaterThan(FORM_PROOF_REUSE_MS + 5 * 60_000);
    expect(expires - Date.now()).toBeLessThanOrEqual(30 * 60_000 + 1000);
  });

  test("draws a different salt and number each time, and stores nothing", async () => {
    const spentBefore = await migration.db.query("select * from private.form_proofs_spent");
    const challenges = await Promise.all(Array.from({ length: 20 }, () => issue()));
    expect(new Set(challenges.map((c) => c.salt)).size).toBe(20);
    expect(new Set(challenges.map((c) => c.challenge)).size).toBe(20);
    const numbers = challenges
      .slice(0, 5)
      .map(
        (c) => JSON.parse(Buffer.from(solveFormChallenge(c), "base64").toString()).number as number,
      );
    expect(new Set(numbers).size).toBeGreaterThan(1);
    expect((await migration.db.query("select * from private.form_proofs_spent")).rows).toEqual(
      spentBefore.rows,
    );
  });
});

describe("the HMAC built from sha256", () => {
  test.each([1, 20, 63, 64, 65, 200])(
    "equals RFC 2104 HMAC-SHA-256 (Node's crypto) for a %i-byte key",
    async (keyLength) => {
      const key = crypto.randomBytes(keyLength);
      for (const message of ["", "a", "x".repeat(64), "x".repeat(500), "Zoë 🚌"]) {
        const result = await migration.db.query<{ mac: string }>(
          "select encode(private.hmac_sha256($1, convert_to($2, 'UTF8')), 'hex') as mac",
          [key, message],
        );
        expect(result.rows[0]!.mac).toBe(
          crypto.createHmac("sha256", key).update(message).digest("hex"),
        );
      }
    },
  );
});
