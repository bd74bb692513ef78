/**
 * The digest's claim/finish pair on PGlite: every held request listed, one digest per interval,
 * exactly once across failures and lost leases, held requests after their wait, confirmed ones
 * dropped, the service role only.
 */

import { spamRequest } from "./screening-corpus";
import { screeningDatabase } from "./screening-harness";
import { asRole, goodRow, pendingProof, rejection } from "./test-helpers";

jest.setTimeout(120_000);

const { db, send, sendVerified, claimDigest, finishDigest } = screeningDatabase();

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
    expect(
      await finishDigest(digest!.digest_id, "00000000-0000-0000-0000-000000000000", null),
    ).toBe(false);
    expect(await finishDigest(digest!.digest_id, digest!.lease_token, null)).toBe(true);
    expect(await finishDigest(digest!.digest_id, digest!.lease_token, null)).toBe(false);
    const states = await db().query<{ status: string; n: number }>(
      "select status, count(*)::int as n from public.contact_notifications group by status order by status",
    );
    expect(states.rows).toEqual([
      { status: "digested", n: 14 },
      { status: "pending", n: 1 },
    ]);
    const overview = await db().query<{ suspect: boolean; digest_sent_at: Date | null }>(
      "select suspect, digest_sent_at from public.meeting_requests_overview where notification = 'digested' limit 1",
    );
    expect(overview.rows[0]!.suspect).toBe(true);
    expect(overview.rows[0]!.digest_sent_at).not.toBeNull();
  });

  test("at most one digest per interval: held requests after a sent digest wait for the next", async () => {
    await send(goodRow(), "192.0.2.70");
    const [first] = await claimDigest();
    await finishDigest(first!.digest_id, first!.lease_token, null);
    await send(goodRow(), "192.0.2.70");
    expect(await claimDigest()).toEqual([]);
    const due = await db().query<{ due: boolean }>("select public.has_due_contact_digest() as due");
    expect(due.rows[0]!.due).toBe(false);
    await db().query(
      "update public.contact_digests set sent_at = sent_at - interval '901 seconds'",
    );
    const [second] = await claimDigest();
    expect(second).toMatchObject({ request_count: 1 });
    expect(second!.digest_id).not.toBe(first!.digest_id);
  });

  test("exactly once: a failed or abandoned digest is claimed again with the same id and requests", async () => {
    await send(goodRow(), "192.0.2.80");
    const [first] = await claimDigest(1);
    await send(goodRow(), "192.0.2.80"); // arrives meanwhile: belongs to the next digest
    await db().query(
      "update public.contact_digests set lease_expires_at = now() - interval '1 second'",
    );
    const [again] = await claimDigest();
    expect(again).toMatchObject({ digest_id: first!.digest_id, attempt: 2, request_count: 1 });
    expect(await finishDigest(again!.digest_id, again!.lease_token, "SMTP 451")).toBe(true);
    const [third] = await claimDigest();
    expect(third).toMatchObject({ digest_id: first!.digest_id, attempt: 3, request_count: 1 });
    await finishDigest(third!.digest_id, third!.lease_token, null);
    const sent = await db().query<{ n: number }>(
      "select count(*)::int as n from public.contact_digests where sent_at is not null",
    );
    expect(sent.rows[0]!.n).toBe(1);
  });

  test("held requests join the digest only after their wait for the page's proof; nothing held, nothing due", async () => {
    expect(
      (await db().query<{ due: boolean }>("select public.has_due_contact_digest() as due")).rows[0]!
        .due,
    ).toBe(false);
    const id = await send(goodRow(), "192.0.2.90", pendingProof().header);
    expect(await claimDigest()).toEqual([]);
    await db().query(
      "update public.contact_notifications set next_attempt_at = now() - interval '1 second' where contact_id = $1",
      [id],
    );
    const [digest] = await claimDigest();
    expect(digest!.reasons).toEqual({ "page proof never confirmed": 1 });
  });

  test("a digest whose every request was confirmed meanwhile is dropped, not sent empty", async () => {
    const ticket = pendingProof();
    const id = await send(goodRow(), "192.0.2.91", ticket.header);
    await db().query(
      "update public.contact_notifications set next_attempt_at = now() - interval '1 second' where contact_id = $1",
      [id],
    );
    const [digest] = await claimDigest(1);
    await db().query("select private.form_proof_confirmed($1)", [ticket.ticketHash]);
    await db().query(
      "update public.contact_digests set lease_expires_at = now() - interval '1 second'",
    );
    expect(await claimDigest()).toEqual([]);
    expect(
      (await db().query("select * from public.contact_digests where id = $1", [digest!.digest_id]))
        .rows,
    ).toEqual([]);
  });

  test("only the service role may claim or finish digests", async () => {
    for (const role of ["anon", "authenticated"] as const) {
      const error = await rejection(
        asRole(db(), role, (tx) => tx.query("select * from public.claim_contact_digest()")),
      );
      expect(error.message).toMatch(/permission denied/);
    }
  });
});
