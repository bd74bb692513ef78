/**
 * What reaches staff, and in which order (migrations …05, …06, …08): the one-by-one queue and
 * the digest.
 */
import { asRole, goodRow, pendingProof } from "../../local-backend/test-support/helpers";
import { insertAs, migrated, one, screeningSteps, sweep } from "./harness";
import { spamRequest } from "./screening-corpus";

jest.setTimeout(120_000);

const db = migrated();
const { send, sendVerified, screened, confirm, waited, claimDigest, finishDigest, statuses } =
  screeningSteps(db);

const backInTime = (table: string, column: string, interval: string) =>
  db().query(`update ${table} set ${column} = ${column} - interval '${interval}'`);

describe("the page's confirmation (private.form_proof_confirmed)", () => {
  test("a pending request becomes page-verified and due at once, once, within 30 minutes, spam-looking or not", async () => {
    const ticket = pendingProof();
    const id = await send(spamRequest(1), "192.0.2.30", ticket.header);
    expect(await confirm(pendingProof().ticketHash)).toBe(false);
    expect(await confirm(ticket.ticketHash)).toBe(true);
    expect(await screened(id)).toEqual({
      verdict: "page-verified",
      proof: "confirmed",
      signals: ["links"],
      budget: "one-by-one",
      status: "pending",
      priority: 0,
    });
    expect(await confirm(ticket.ticketHash)).toBe(false);

    const late = pendingProof();
    await send(goodRow(), "192.0.2.31", late.header);
    await backInTime("public.contact_screening", "screened_at", "31 minutes");
    expect(await confirm(late.ticketHash)).toBe(false);
  });

  test("a request already counted in a digest is still notified one by one when confirmed", async () => {
    const ticket = pendingProof();
    const id = await send(goodRow(), "192.0.2.32", ticket.header);
    await waited(id);
    const [digest] = await claimDigest();
    await finishDigest(digest!.digest_id, digest!.lease_token, null);
    expect((await screened(id)).status).toBe("digested");
    await confirm(ticket.ticketHash);
    expect(await screened(id)).toMatchObject({ status: "pending", priority: 0 });
  });
});

describe("the one-by-one queue", () => {
  test("page-verified requests are claimed before any older backlog", async () => {
    for (let i = 0; i < 5; i += 1)
      await asRole(db(), "service_role", (tx) => insertAs(tx, goodRow()));
    await backInTime("public.contact_notifications", "next_attempt_at", "1 hour");
    const real = await sendVerified();
    const claimed = await sweep(db(), 2);
    expect(claimed).toHaveLength(2);
    expect(claimed[0]).toBe(real);
  });

  test("held and suspect requests are never claimed one by one", async () => {
    await send(goodRow(), "192.0.2.40");
    await send(goodRow(), "192.0.2.40", pendingProof().header);
    await backInTime("public.contact_notifications", "next_attempt_at", "1 hour");
    expect(await sweep(db(), 10)).toEqual([]);
    expect(await one(db(), "select public.has_due_contact_notifications() as value")).toBe(false);
  });
});

describe("the digest", () => {
  test("lists every held request with its reasons and the start of its text; sent ones are marked and not sent again", async () => {
    for (let i = 0; i < 12; i += 1) await send(spamRequest(i * 10), `192.0.2.${50 + (i % 3)}`); // one text, 12 times
    await send(spamRequest(4), "192.0.2.60", "garbage");
    await send({ ...goodRow(), message: "x".repeat(500) }, "192.0.2.61");
    await sendVerified(); // notified one by one: not in the digest
    const [digest, ...more] = await claimDigest();
    expect(more).toEqual([]);
    expect(digest).toMatchObject({
      attempt: 1,
      request_count: 14,
      client_count: 5,
      interval_seconds: 900,
    });
    expect(digest!.reasons).toEqual({ "no page proof": 13, "invalid page proof": 1 });
    expect(digest!.requests).toHaveLength(14);
    expect(digest!.requests.filter((held) => held.copies === 12)).toHaveLength(12);
    expect(digest!.requests.find((held) => held.name === "John Smith")).toMatchObject({
      held_for: ["no page proof"],
      signals: ["links"],
    });
    expect(digest!.requests.find((held) => held.truncated)?.message).toHaveLength(400);

    expect(await claimDigest()).toEqual([]); // leased
    const stranger = "00000000-0000-0000-0000-000000000000";
    expect(await finishDigest(digest!.digest_id, stranger, null)).toBe(false);
    expect(await finishDigest(digest!.digest_id, digest!.lease_token, null)).toBe(true);
    expect(await finishDigest(digest!.digest_id, digest!.lease_token, null)).toBe(false);
    expect(await statuses()).toEqual([
      { status: "digested", n: 14 },
      { status: "pending", n: 1 },
    ]);
    const overview = await db().query(
      "select suspect, digest_sent_at is not null as sent from public.meeting_requests_overview where notification = 'digested' limit 1",
    );
    expect(overview.rows).toEqual([{ suspect: true, sent: true }]);
  });

  test("at most one digest per interval: held requests after a sent digest wait for the next", async () => {
    await send(goodRow(), "192.0.2.70");
    const [first] = await claimDigest();
    await finishDigest(first!.digest_id, first!.lease_token, null);
    await send(goodRow(), "192.0.2.70");
    expect(await claimDigest()).toEqual([]);
    expect(await one(db(), "select public.has_due_contact_digest() as value")).toBe(false);
    await backInTime("public.contact_digests", "sent_at", "901 seconds");
    const [second] = await claimDigest();
    expect(second).toMatchObject({ request_count: 1 });
    expect(second!.digest_id).not.toBe(first!.digest_id);
  });

  test("exactly once: a failed or abandoned digest is claimed again with the same id and requests", async () => {
    await send(goodRow(), "192.0.2.80");
    const [first] = await claimDigest(1);
    await send(goodRow(), "192.0.2.80"); // arrives meanwhile: belongs to the next digest
    await backInTime("public.contact_digests", "lease_expires_at", "61 seconds");
    const [again] = await claimDigest();
    expect(again).toMatchObject({ digest_id: first!.digest_id, attempt: 2, request_count: 1 });
    expect(await finishDigest(again!.digest_id, again!.lease_token, "SMTP 451")).toBe(true);
    const [third] = await claimDigest();
    expect(third).toMatchObject({ digest_id: first!.digest_id, attempt: 3, request_count: 1 });
    await finishDigest(third!.digest_id, third!.lease_token, null);
    expect(
      await one(
        db(),
        "select count(*)::int as value from public.contact_digests where sent_at is not null",
      ),
    ).toBe(1);
  });

  test("held requests join the digest only after their wait for the page's proof; nothing held, nothing due", async () => {
    expect(await one(db(), "select public.has_due_contact_digest() as value")).toBe(false);
    const id = await send(goodRow(), "192.0.2.90", pendingProof().header);
    expect(await claimDigest()).toEqual([]);
    await waited(id);
    expect((await claimDigest())[0]!.reasons).toEqual({ "page proof never confirmed": 1 });
  });

  test("a digest whose every request was confirmed meanwhile is dropped, not sent empty", async () => {
    const ticket = pendingProof();
    await waited(await send(goodRow(), "192.0.2.91", ticket.header));
    const [digest] = await claimDigest(1);
    await confirm(ticket.ticketHash);
    await backInTime("public.contact_digests", "lease_expires_at", "61 seconds");
    expect(await claimDigest()).toEqual([]);
    expect(
      (await db().query("select * from public.contact_digests where id = $1", [digest!.digest_id]))
        .rows,
    ).toEqual([]);
  });
});
