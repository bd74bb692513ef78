/**
 * The page-proof migration on PGlite, checking a proof: it counts once and only while its challenge
 * lasts (a refused insert gives it back), altcha-lib's own challenges pass, anything spliced, forged
 * or malformed is invalid, and a pending ticket is recognised by its shape.
 */
import { b64, formProofMigration, sha256Hex, ticket } from "./form-proof-migration-harness";
import { rejection, solveFormChallenge } from "./test-helpers";

jest.setTimeout(90_000);

const migration = formProofMigration();
const { issue, verdict, altchaPayload } = migration;

describe("form_proof_verdict", () => {
  test("a solved challenge is verified once; the same payload again is invalid", async () => {
    const payload = solveFormChallenge(await issue());
    expect(await verdict(payload)).toBe("verified");
    expect(await verdict(payload)).toBe("invalid");
  });

  test("a proof spent in a transaction that is rolled back (a refused insert) can be used again", async () => {
    const payload = solveFormChallenge(await issue());
    await rejection(
      migration.db.transaction(async (tx) => {
        await tx.query("select private.form_proof_verdict($1)", [payload]);
        throw new Error("insert refused");
      }),
    );
    expect(await verdict(payload)).toBe("verified");
  });

  test("a challenge made by altcha-lib with the same secret and salt shape is verified (interoperable)", async () => {
    expect(await verdict(await altchaPayload({ expiresAt: new Date(Date.now() + 60_000) }))).toBe(
      "verified",
    );
  });

  test("expired, signed with another key, or the wrong number: invalid", async () => {
    expect(await verdict(await altchaPayload({ expiresAt: new Date(Date.now() - 1000) }))).toBe(
      "invalid",
    );
    expect(
      await verdict(
        await altchaPayload({
          expiresAt: new Date(Date.now() + 60_000),
          key: "another secret of 32 characters!",
        }),
      ),
    ).toBe("invalid");
    const challenge = await issue();
    const payload = JSON.parse(
      Buffer.from(solveFormChallenge(challenge), "base64").toString(),
    ) as Record<string, unknown>;
    const wrongNumber = { ...payload, number: ((payload.number as number) + 1) % 50_001 };
    expect(await verdict(b64(JSON.stringify(wrongNumber)))).toBe("invalid");
    expect(await verdict(b64(JSON.stringify(payload)))).toBe("verified");
  });

  test("a salt not exactly as issued is refused even when salt + number hash the same (parameter splicing)", async () => {
    const good = JSON.parse(
      Buffer.from(
        await altchaPayload({ expiresAt: new Date(Date.now() + 60_000), number: 12345 }),
        "base64",
      ).toString(),
    );
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
    [
      "SHA-512",
      b64(
        JSON.stringify({
          algorithm: "SHA-512",
          challenge: "0".repeat(64),
          number: 1,
          salt: `${"0".repeat(32)}?expires=9999999999&`,
          signature: "0".repeat(64),
        }),
      ),
    ],
    [
      "number as text",
      b64(
        JSON.stringify({
          algorithm: "SHA-256",
          challenge: "0".repeat(64),
          number: "1",
          salt: `${"0".repeat(32)}?expires=9999999999&`,
          signature: "0".repeat(64),
        }),
      ),
    ],
    [
      "number above maxnumber",
      b64(
        JSON.stringify({
          algorithm: "SHA-256",
          challenge: "0".repeat(64),
          number: 50_001,
          salt: `${"0".repeat(32)}?expires=9999999999&`,
          signature: "0".repeat(64),
        }),
      ),
    ],
    [
      "a fraction",
      b64(
        JSON.stringify({
          algorithm: "SHA-256",
          challenge: "0".repeat(64),
          number: 1.5,
          salt: `${"0".repeat(32)}?expires=9999999999&`,
          signature: "0".repeat(64),
        }),
      ),
    ],
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
    await migration.db.query(
      "insert into private.form_proofs_spent values ('old', now() - interval '1 second'), ('current', now() + interval '1 minute')",
    );
    expect(await verdict(solveFormChallenge(await issue()))).toBe("verified");
    const left = (
      await migration.db.query<{ challenge: string }>(
        "select challenge from private.form_proofs_spent where challenge in ('old', 'current')",
      )
    ).rows;
    expect(left).toEqual([{ challenge: "current" }]);
  });
});

describe("form_proof_ticket_hash", () => {
  test("is the hex sha256 of a well-formed ticket, else null", async () => {
    const t = ticket();
    const hash = async (header: string | null) =>
      (
        await migration.db.query<{ hash: string | null }>(
          "select private.form_proof_ticket_hash($1) as hash",
          [header],
        )
      ).rows[0]!.hash;
    expect(await hash(`pending:${t}`)).toBe(sha256Hex(t));
    expect(await hash(t)).toBeNull();
    expect(await hash(`pending:${t.toUpperCase()}`)).toBeNull();
    expect(await hash(null)).toBeNull();
  });
});
