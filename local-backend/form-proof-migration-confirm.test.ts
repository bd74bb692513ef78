/**
 * The page-proof migration on PGlite, confirming a pending request: a valid proof hands the ticket's
 * hash to private.form_proof_confirmed (a stub here until the screening migration defines it) once;
 * a forged proof or a malformed ticket confirms nothing.
 */
import { formProofMigration, sha256Hex, ticket } from "./form-proof-migration-harness";
import { CONFIRMED_STUB_SQL, solveFormChallenge } from "./test-helpers";

jest.setTimeout(90_000);

const migration = formProofMigration();
const { issue, verdict, confirm, confirmedCalls, altchaPayload } = migration;

describe("confirm_form_proof", () => {
  beforeEach(async () => {
    await migration.db.query("delete from private.confirmed_calls");
  });

  test("a valid proof passes the ticket's hash to form_proof_confirmed and returns its answer, once", async () => {
    const t = ticket();
    const payload = solveFormChallenge(await issue());
    expect(await confirm(t, payload)).toBe(true);
    expect(await confirmedCalls()).toEqual([sha256Hex(t)]);
    expect(await confirm(t, payload)).toBe(false); // spent
    expect(await confirmedCalls()).toEqual([sha256Hex(t)]);
  });

  test("returns form_proof_confirmed's false (e.g. no such pending request)", async () => {
    await migration.db.exec(
      "create or replace function private.form_proof_confirmed(ticket_hash text) returns boolean language sql set search_path = '' as $$ select false $$",
    );
    try {
      expect(await confirm(ticket(), solveFormChallenge(await issue()))).toBe(false);
    } finally {
      await migration.db.exec(CONFIRMED_STUB_SQL);
    }
  });

  test("a forged proof or a malformed ticket confirms nothing", async () => {
    expect(
      await confirm(
        ticket(),
        await altchaPayload({
          expiresAt: new Date(Date.now() + 60_000),
          key: "another secret of 32 characters!",
        }),
      ),
    ).toBe(false);
    expect(await confirm(ticket(), "garbage")).toBe(false);
    const payload = solveFormChallenge(await issue());
    expect(await confirm("not a ticket", payload)).toBe(false);
    expect(await confirm(`${ticket()}`.toUpperCase(), payload)).toBe(false);
    expect(await confirmedCalls()).toEqual([]);
    expect(await verdict(payload)).toBe("verified"); // a malformed ticket did not spend the proof
  });
});
