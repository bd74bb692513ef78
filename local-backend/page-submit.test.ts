/**
 * The page's real submit path (src/lib/submit-meeting-request.ts: supabase-js as the page ships
 * it, over HTTP into this backend), not the form's seam. The proof is solved in-thread (__mocks__).
 */
import crypto from "node:crypto";
import { startLocalBackend, type LocalBackend } from ".";
import { CONFIRMED_STUB_SQL, openedForTests, waitUntil } from "./test-support/helpers";
import { warmUpContactsInsert } from "../src/lib/contacts-warm-up";
import { buildContactRecord } from "../src/lib/meeting-request";
import {
  contactsInsertHeaders,
  insertContactRecord,
  MeetingRequestError,
  startFormProof,
} from "../src/lib/submit-meeting-request";

const record = buildContactRecord(
  {
    fullName: "  Ana Pérez ",
    organization: "Valley Regional Transit",
    email: "ana.submit@vrt.example.org",
    phone: "",
    fleetSize: "25 vehicles",
    products: ["MobilityDR", "Vámonos!"],
    meetingTime: "day2-afternoon",
    challenges: "Riders wait too long.\n<script>alert(1)</script> ¿Qué tal? 🚌",
  },
  [{ value: "day2-afternoon", label: "Day 2 Afternoon" }],
);

async function storedContacts(backend: LocalBackend) {
  const result = await backend.db.query(
    "select name, email, organization, message from public.contacts order by id",
  );
  return result.rows;
}

const backend = openedForTests(async () => {
  const started = await startLocalBackend({ port: 0, log: () => undefined });
  await started.db.exec(CONFIRMED_STUB_SQL);
  return started;
});
const connection = () => ({ url: backend().url, anonKey: backend().anonKey });

describe("insertContactRecord against the local backend", () => {
  it("the warm-up is answered and stores nothing; the insert stores exactly the assembled record", async () => {
    await expect(warmUpContactsInsert(connection())).resolves.toBeUndefined();
    expect(await storedContacts(backend())).toEqual([]);
    await insertContactRecord(record, connection());
    expect(await storedContacts(backend())).toEqual([record]);
  });

  it.each([
    [
      "explains a wrong anon key in the console message",
      { email: "wrong.key@vrt.example.org" },
      "not-the-key",
      /HTTP 401.*GATSBY_SUPABASE_ANON_KEY/,
    ],
    [
      "reports a value the database refuses",
      { email: "not an address" },
      undefined,
      /HTTP 400, code 23514/,
    ],
  ])("%s, and stores nothing", async (_what, change, anonKey, message) => {
    const before = (await storedContacts(backend())).length;
    const failure = insertContactRecord(
      { ...record, ...change },
      { ...connection(), ...(anonKey && { anonKey }) },
    );
    await expect(failure).rejects.toThrow(MeetingRequestError);
    await expect(failure).rejects.toThrow(message);
    expect(await storedContacts(backend())).toHaveLength(before);
  });
});

describe("the page proof on the real submit path", () => {
  const confirmed = async () =>
    (
      await backend().db.query<{ ticket_hash: string }>(
        "select ticket_hash from private.confirmed_calls",
      )
    ).rows.map((row) => row.ticket_hash);

  it("a tap before any proof sends pending:<ticket>, and the ticket is confirmed once the proof is solved", async () => {
    const headers = contactsInsertHeaders();
    expect(Object.keys(headers)).toEqual(["x-form-proof"]);
    const ticket = /^pending:([0-9a-f]{32})$/.exec(headers["x-form-proof"]!)![1]!;
    const hash = crypto.createHash("sha256").update(ticket).digest("hex");
    await insertContactRecord({ ...record, email: "pending.ticket@vrt.example.org" }, connection());
    await waitUntil(async () => (await confirmed()).includes(hash));
  });

  it("after the first focus the proof is solved, sent with the insert, verified by the database, and used once", async () => {
    const proof = () => contactsInsertHeaders()["x-form-proof"]!;
    startFormProof(connection());
    await waitUntil(() => !proof().startsWith("pending:"));
    const solved = proof();
    await insertContactRecord({ ...record, email: "solved.proof@vrt.example.org" }, connection());
    expect(proof()).toMatch(/^pending:/); // spent: the next request needs a new round
    const screened = await backend().db.query(
      "select s.proof from public.contact_screening s join public.contacts c on c.id = s.contact_id where c.email = 'solved.proof@vrt.example.org'",
    );
    expect(screened.rows).toEqual([{ proof: "verified" }]);
    const again = await backend().db.query<{ v: string }>(
      "select private.form_proof_verdict($1) as v",
      [solved],
    );
    expect(again.rows[0]!.v).toBe("invalid");
    // The next round starts at the next focus (startFormProof), not before: each challenge costs more.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(proof()).toMatch(/^pending:/);
    startFormProof(connection());
    await waitUntil(() => !proof().startsWith("pending:"));
    expect(proof()).not.toBe(solved);
  }, 30_000); // two proofs solved in-thread on a shared machine
});
