/**
 * Each request's delivery state (20261128000006_contact_notifications.sql, …07) without Supabase's
 * webhook machinery, as the local backend has it. The hosted half: hosted.test.ts.
 */
import {
  asRole,
  goodRow,
  rejection,
  uniqueAddress,
} from "../../local-backend/test-support/helpers";
import { asStaff, insertAs, migrated, one, pageProof, sendRequest, sweep } from "./harness";

jest.setTimeout(60_000);

const db = migrated();

/** A row of claim_contact_notifications (the fields read by name; the request's own follow). */
type Claimed = { lease_token: string; attempt: number };

/** A request sent through the page, each from an address of its own: e-mailed one by one. */
const insertRequest = async (overrides: Parameters<typeof goodRow>[0] = {}) =>
  sendRequest(db(), goodRow(overrides), uniqueAddress(), await pageProof(db()));

const claim = async (id: number): Promise<Claimed | undefined> =>
  (
    await asStaff<Claimed>(
      db(),
      "select * from public.claim_contact_notifications(request_id => $1, lease_seconds => 60)",
      [id],
    )
  )[0];

const finish = async (id: number, lease: string, failure: string | null, retryIn = 60) =>
  (
    await asStaff<{ recorded: boolean }>(
      db(),
      "select * from public.finish_contact_notification(request_id => $1, lease => $2, failure => $3, retry_in_seconds => $4)",
      [id, lease, failure, retryIn],
    )
  )[0]!.recorded;

const state = async (id: number) =>
  (
    await db().query(
      "select status, attempts, last_error, notified_at is not null as notified from public.contact_notifications where contact_id = $1",
      [id],
    )
  ).rows[0];

const setDue = (id: number, column: string, ago: string) =>
  db().query(
    `update public.contact_notifications set ${column} = now() - interval '${ago}' where contact_id = $1`,
    [id],
  );

test("each stored request gets a pending notification in the same transaction; a refused one gets none", async () => {
  const id = await insertRequest();
  expect(await state(id)).toEqual({
    status: "pending",
    attempts: 0,
    last_error: null,
    notified: false,
  });
  const count = "select count(*)::int as value from public.contact_notifications";
  const before = await one(db(), count);
  await rejection(asRole(db(), "anon", (tx) => insertAs(tx, goodRow({ name: "" }))));
  expect(await one(db(), count)).toBe(before);
});

describe("claims, leases and outcomes (service role)", () => {
  test("a claim leases the request once; a failure schedules a retry; a delivery is final; staff see the state", async () => {
    const id = await insertRequest({ name: "Claimed Visitor" });
    const overview = "select name, notification, notified_at from public.meeting_requests_overview";
    expect(await asStaff(db(), `${overview} where id = $1`, [id])).toEqual([
      { name: "Claimed Visitor", notification: "pending", notified_at: null },
    ]);
    const first = await claim(id);
    expect(first).toMatchObject({ attempt: 1, id, name: "Claimed Visitor" });
    // Leased: nobody else gets it, neither by id nor in a sweep.
    expect(await claim(id)).toBeUndefined();
    expect(await sweep(db(), 1000)).not.toContain(id);

    // A stranger's lease token records nothing.
    expect(await finish(id, "00000000-0000-0000-0000-000000000000", null)).toBe(false);
    expect(await finish(id, first!.lease_token, "SMTP server refused", 3600)).toBe(true);
    expect(await state(id)).toEqual({
      status: "pending",
      attempts: 1,
      last_error: "SMTP server refused",
      notified: false,
    });
    expect(await claim(id)).toBeUndefined(); // not due before its back-off is over

    await setDue(id, "next_attempt_at", "1 second");
    const second = await claim(id);
    expect(second?.attempt).toBe(2);
    expect(await finish(id, second!.lease_token, null)).toBe(true);
    expect(await state(id)).toEqual({
      status: "delivered",
      attempts: 2,
      last_error: null,
      notified: true,
    });

    // Delivered: never handed out again, and a late outcome from an old lease changes nothing.
    await setDue(id, "next_attempt_at", "1 day");
    expect(await claim(id)).toBeUndefined();
    expect(await finish(id, second!.lease_token, "late failure")).toBe(false);
    expect(await state(id)).toMatchObject({ status: "delivered" });
  });

  test("an expired lease can be taken over, and then only the new holder records the outcome", async () => {
    const id = await insertRequest();
    const first = await claim(id);
    await setDue(id, "lease_expires_at", "1 second");
    const second = await claim(id);
    expect(second?.attempt).toBe(2);
    expect(await finish(id, first!.lease_token, null)).toBe(false);
    expect(await finish(id, second!.lease_token, null)).toBe(true);
  });

  test("a sweep claims what is due, oldest first, at most max_count", async () => {
    await db().query(
      "update public.contact_notifications set status = 'delivered', notified_at = now() where status = 'pending'",
    );
    const ids = [await insertRequest(), await insertRequest(), await insertRequest()];
    expect(await sweep(db(), 2)).toEqual(ids.slice(0, 2));
    expect(await sweep(db(), 10)).toEqual(ids.slice(2));
  });
});

test("without pg_net and Vault the hosted half is a no-op: no webhook trigger, the retry job only warns", async () => {
  const triggers = await db().query<{ tgname: string }>(
    "select tgname from pg_trigger where tgrelid = 'public.contacts'::regclass and not tgisinternal order by tgname",
  );
  expect(triggers.rows.map((row) => row.tgname)).toEqual([
    "contacts_10_check_request",
    "contacts_25_screen_request",
    "contacts_30_queue_notification",
    "contacts_50_keep_campaign",
  ]);
  await insertRequest();
  await expect(db().query("select public.retry_contact_notifications()")).resolves.toBeDefined();
});
