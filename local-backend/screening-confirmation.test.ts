/**
 * The page's confirmation of a pending ticket (private.form_proof_confirmed), and the one-by-one
 * queue: page-verified requests first, held and suspect ones never.
 */

import { spamRequest } from "./screening-corpus";
import { screeningDatabase } from "./screening-harness";
import { goodRow, insertAs, pendingProof } from "./test-helpers";

jest.setTimeout(120_000);

const { db, asService, send, sendVerified, screened, claimDigest, finishDigest } =
  screeningDatabase();

describe("the page's confirmation (private.form_proof_confirmed)", () => {
  test("a pending request becomes page-verified and due at once, once", async () => {
    const ticket = pendingProof();
    const id = await send(goodRow(), "192.0.2.30", ticket.header);
    const confirm = async (hash: string) =>
      (await db().query<{ ok: boolean }>("select private.form_proof_confirmed($1) as ok", [hash]))
        .rows[0]!.ok;
    expect(await confirm(pendingProof().ticketHash)).toBe(false);
    expect(await confirm(ticket.ticketHash)).toBe(true);
    expect(await screened(id)).toEqual({
      verdict: "page-verified",
      proof: "confirmed",
      signals: [],
      status: "pending",
      priority: 0,
    });
    expect(await confirm(ticket.ticketHash)).toBe(false);
  });

  test("after 30 minutes it is too late; spam-looking content confirmed by the page is e-mailed like any other", async () => {
    const late = pendingProof();
    const lateId = await send(goodRow(), "192.0.2.31", late.header);
    await db().query(
      "update public.contact_screening set screened_at = screened_at - interval '31 minutes' where contact_id = $1",
      [lateId],
    );
    expect(
      (
        await db().query<{ ok: boolean }>("select private.form_proof_confirmed($1) as ok", [
          late.ticketHash,
        ])
      ).rows[0]!.ok,
    ).toBe(false);

    const spam = pendingProof();
    const spamId = await send(spamRequest(1), "192.0.2.31", spam.header);
    expect(
      (
        await db().query<{ ok: boolean }>("select private.form_proof_confirmed($1) as ok", [
          spam.ticketHash,
        ])
      ).rows[0]!.ok,
    ).toBe(true);
    expect(await screened(spamId)).toMatchObject({
      verdict: "page-verified",
      proof: "confirmed",
      signals: ["links"],
      status: "pending",
      priority: 0,
    });
  });

  test("a request already counted in a digest is still notified one by one when confirmed", async () => {
    const ticket = pendingProof();
    const id = await send(goodRow(), "192.0.2.32", ticket.header);
    await db().query(
      "update public.contact_notifications set next_attempt_at = now() - interval '1 second' where contact_id = $1",
      [id],
    );
    const [digest] = await claimDigest();
    await finishDigest(digest!.digest_id, digest!.lease_token, null);
    expect((await screened(id)).status).toBe("digested");
    await db().query("select private.form_proof_confirmed($1)", [ticket.ticketHash]);
    expect(await screened(id)).toMatchObject({ status: "pending", priority: 0 });
  });
});

describe("the one-by-one queue", () => {
  test("page-verified requests are claimed before any older backlog", async () => {
    for (let i = 0; i < 5; i += 1) await asService((tx) => insertAs(tx, goodRow()));
    await db().query(
      "update public.contact_notifications set next_attempt_at = now() - interval '1 hour'",
    );
    const real = await sendVerified();
    const claimed = await asService((tx) =>
      tx.query<{ id: number }>(
        "select id from public.claim_due_contact_notifications(max_count => 2, lease_seconds => 60)",
      ),
    );
    expect(claimed.rows[0]!.id).toBe(real);
    expect(claimed.rows).toHaveLength(2);
  });

  test("held and suspect requests are never claimed one by one", async () => {
    await send(goodRow(), "192.0.2.40");
    await send(goodRow(), "192.0.2.40", pendingProof().header);
    await db().query(
      "update public.contact_notifications set next_attempt_at = now() - interval '1 hour'",
    );
    const claimed = await asService((tx) =>
      tx.query("select * from public.claim_due_contact_notifications(max_count => 10)"),
    );
    expect(claimed.rows).toEqual([]);
    const due = await db().query<{ due: boolean }>(
      "select public.has_due_contact_notifications() as due",
    );
    expect(due.rows[0]!.due).toBe(false);
  });
});
