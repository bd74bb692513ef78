/**
 * The staff-notification migration (supabase/migrations/20251123120000_contact_notifications.sql)
 * on PGlite: the delivery state is created with each request, only the service role can
 * claim and record deliveries, a delivered request is never handed out again, and the
 * hosted-only webhook part is a no-op here. Visitors still can only insert.
 */

import type { Transaction } from "@electric-sql/pglite";

import {
  asRole,
  asVisitor,
  goodRow,
  insertAs,
  migratedDatabase,
  pageProof,
  rejection,
  visitorHeaders,
  uniqueAddress,
} from "./test-helpers";

jest.setTimeout(60_000);

const db = migratedDatabase();

interface Claimed {
  lease_token: string;
  attempt: number;
  id: number;
  name: string;
}

async function insertRequest(overrides: Parameters<typeof goodRow>[0] = {}): Promise<number> {
  const row = goodRow(overrides);
  // A request sent through the page (page-verified), each from a visitor's own address: notified one
  // by one (the screening, 20261124110000; the budgets per address, 20261126110000).
  await asVisitor(
    db(),
    visitorHeaders(uniqueAddress(), { "x-form-proof": await pageProof(db()) }),
    (tx) => insertAs(tx, row),
  );
  const result = await db().query<{ id: number }>(
    "select id from public.contacts where email = $1",
    [row.email],
  );
  return result.rows[0]!.id;
}

function asService<T>(task: (tx: Transaction) => Promise<T>): Promise<T> {
  return asRole(db(), "service_role", task);
}

async function claim(id: number): Promise<Claimed | undefined> {
  const result = await asService((tx) =>
    tx.query<Claimed>(
      "select * from public.claim_contact_notification(request_id => $1, lease_seconds => 60)",
      [id],
    ),
  );
  return result.rows[0];
}

async function finish(
  id: number,
  lease: string,
  failure: string | null,
  retryInSeconds = 60,
): Promise<boolean> {
  const result = await asService((tx) =>
    tx.query<{ recorded: boolean }>(
      "select * from public.finish_contact_notification(request_id => $1, lease => $2, failure => $3, retry_in_seconds => $4)",
      [id, lease, failure, retryInSeconds],
    ),
  );
  return result.rows[0]!.recorded;
}

/** The ids a sweep (claim_due_contact_notifications) leases, oldest first. */
async function sweep(maxCount: number): Promise<number[]> {
  const result = await asService((tx) =>
    tx.query<Claimed>("select * from public.claim_due_contact_notifications(max_count => $1)", [
      maxCount,
    ]),
  );
  return result.rows.map((row) => row.id);
}

async function state(id: number) {
  const result = await db().query<{
    status: string;
    attempts: number;
    last_error: string | null;
    notified: boolean;
  }>(
    "select status, attempts, last_error, notified_at is not null as notified from public.contact_notifications where contact_id = $1",
    [id],
  );
  return result.rows[0]!;
}

test("each stored request gets a pending notification in the same transaction; a refused one gets none", async () => {
  const id = await insertRequest();
  expect(await state(id)).toEqual({
    status: "pending",
    attempts: 0,
    last_error: null,
    notified: false,
  });
  const count = "select count(*)::int as n from public.contact_notifications";
  const before = (await db().query<{ n: number }>(count)).rows[0]!.n;
  await rejection(asRole(db(), "anon", (tx) => insertAs(tx, goodRow({ name: "" }))));
  expect((await db().query<{ n: number }>(count)).rows[0]!.n).toBe(before);
});

describe("visitors gain nothing", () => {
  test.each([
    ["read the delivery state", "select * from public.contact_notifications"],
    [
      "change the delivery state",
      "update public.contact_notifications set status = 'delivered', notified_at = now()",
    ],
    ["delete the delivery state", "delete from public.contact_notifications"],
    ["add delivery state", "insert into public.contact_notifications (contact_id) values (1)"],
    ["read the staff overview", "select * from public.meeting_requests_overview"],
    ["claim a notification", "select * from public.claim_contact_notification(1)"],
    ["claim due notifications", "select * from public.claim_due_contact_notifications()"],
    ["record a delivery", "select * from public.finish_contact_notification(1, gen_random_uuid())"],
    ["build a webhook payload", "select public.contact_webhook_payload(c) from public.contacts c"],
    ["post to the function", "select public.post_to_notify_function('{}'::jsonb)"],
    ["run the retry job", "select public.retry_contact_notifications()"],
    ["ask whether notifications are due", "select public.has_due_contact_notifications()"],
  ])("anon and authenticated cannot %s (42501)", async (_label, sql) => {
    for (const role of ["anon", "authenticated"] as const) {
      const error = await rejection(asRole(db(), role, (tx) => tx.query(sql)));
      expect(error.code).toBe("42501");
    }
  });

  test("anon can still insert a request, and still read nothing", async () => {
    await insertRequest();
    expect(
      (await rejection(asRole(db(), "anon", (tx) => tx.query("select * from public.contacts"))))
        .code,
    ).toBe("42501");
  });
});

describe("claims, leases and outcomes (service role)", () => {
  test("a claim leases the request once; a failure schedules a retry; a delivery is final", async () => {
    const id = await insertRequest({ name: "Claimed Visitor" });
    const first = await claim(id);
    expect(first).toMatchObject({ attempt: 1, id, name: "Claimed Visitor" });
    // Leased: nobody else gets it, neither by id nor in a sweep.
    expect(await claim(id)).toBeUndefined();
    expect(await sweep(1000)).not.toContain(id);

    // A stranger's lease token records nothing.
    expect(await finish(id, "00000000-0000-0000-0000-000000000000", null)).toBe(false);
    expect(await finish(id, first!.lease_token, "SMTP server refused", 3600)).toBe(true);
    expect(await state(id)).toEqual({
      status: "pending",
      attempts: 1,
      last_error: "SMTP server refused",
      notified: false,
    });
    // Not due again before its back-off is over.
    expect(await claim(id)).toBeUndefined();

    await db().query(
      "update public.contact_notifications set next_attempt_at = now() - interval '1 second' where contact_id = $1",
      [id],
    );
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
    await db().query(
      "update public.contact_notifications set next_attempt_at = now() - interval '1 day' where contact_id = $1",
      [id],
    );
    expect(await claim(id)).toBeUndefined();
    expect(await finish(id, second!.lease_token, "late failure")).toBe(false);
    expect((await state(id)).status).toBe("delivered");
  });

  test("an expired lease can be taken over, and then only the new holder records the outcome", async () => {
    const id = await insertRequest();
    const first = await claim(id);
    await db().query(
      "update public.contact_notifications set lease_expires_at = now() - interval '1 second' where contact_id = $1",
      [id],
    );
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
    expect(await sweep(2)).toEqual(ids.slice(0, 2));
    expect(await sweep(10)).toEqual(ids.slice(2));
  });

  test("staff see each request with its notification state in meeting_requests_overview", async () => {
    const id = await insertRequest({ name: "Overview Visitor" });
    const row = await asService((tx) =>
      tx.query(
        "select name, notification, notified_at from public.meeting_requests_overview where id = $1",
        [id],
      ),
    );
    expect(row.rows).toEqual([
      { name: "Overview Visitor", notification: "pending", notified_at: null },
    ]);
  });
});

test("the webhook payload has the shape of Supabase's Database Webhooks", async () => {
  const id = await insertRequest({ name: "Payload Visitor", message: "Phone: 555\nFleet Size: 3" });
  const result = await db().query<{ payload: Record<string, unknown> }>(
    "select public.contact_webhook_payload(c) as payload from public.contacts c where id = $1",
    [id],
  );
  const payload = result.rows[0]!.payload;
  expect(payload).toMatchObject({
    type: "INSERT",
    table: "contacts",
    schema: "public",
    old_record: null,
  });
  expect(payload.record).toMatchObject({
    id,
    name: "Payload Visitor",
    message: "Phone: 555\nFleet Size: 3",
  });
  expect(Object.keys(payload.record as object).sort()).toEqual([
    "created_at",
    "email",
    "id",
    "message",
    "name",
    "organization",
  ]);
});

test("without Supabase's webhook machinery (pg_net, Vault) the hosted half is a no-op", async () => {
  const triggers = await db().query<{ tgname: string }>(
    "select tgname from pg_trigger where tgrelid = 'public.contacts'::regclass and not tgisinternal order by tgname",
  );
  expect(triggers.rows.map((row) => row.tgname)).toEqual([
    "contacts_10_one_row_per_request",
    "contacts_20_rate_limit",
    "contacts_25_screen_request",
    "contacts_30_queue_notification",
  ]);
  // The retry job's function finds due work but no Vault: a warning, never an error.
  await insertRequest();
  await expect(db().query("select public.retry_contact_notifications()")).resolves.toBeDefined();
});

describe("the hosted half, against stand-ins for pg_net and Vault", () => {
  // What the migration's final block does where pg_net exists, with net.http_post and
  // vault.decrypted_secrets replaced by recorders of the same signature.
  const STAND_INS = `
    create schema net;
    create table net.calls (url text, body jsonb, headers jsonb, timeout_milliseconds int);
    create function net.http_post(url text, body jsonb default '{}'::jsonb, params jsonb default '{}'::jsonb,
                                  headers jsonb default '{"Content-Type": "application/json"}'::jsonb,
                                  timeout_milliseconds int default 1000) returns bigint
      language plpgsql as $$
      begin
        if url like '%fail%' then raise exception 'pg_net queue is full'; end if;
        insert into net.calls values (url, body, headers, timeout_milliseconds);
        return 1;
      end $$;
    create schema vault;
    create table vault.secrets_store (name text, decrypted_secret text);
    create view vault.decrypted_secrets as select name, decrypted_secret from vault.secrets_store;
    -- The page proof's key (20261124100000_form_proof.sql reads it from Vault where Vault exists).
    insert into vault.secrets_store values ('form_proof_secret', 'a-test-key-for-the-page-proof-0123456789');
    create trigger contacts_40_notify_staff after insert on public.contacts
      for each row execute function public.contacts_post_webhook();
  `;

  const hosted = migratedDatabase((db) => db.exec(STAND_INS));

  async function calls() {
    type Call = {
      url: string;
      body: Record<string, unknown>;
      headers: Record<string, string>;
      timeout_milliseconds: number;
    };
    const result = await hosted().query<Call>("select * from net.calls");
    await hosted().query("delete from net.calls");
    return result.rows;
  }

  async function anonInsert(row = goodRow()): Promise<void> {
    await asVisitor(
      hosted(),
      visitorHeaders("198.51.100.1", { "x-form-proof": await pageProof(hosted()) }),
      (tx) => insertAs(tx, row),
    );
  }

  test("without the Vault secrets an insert succeeds and nothing is posted", async () => {
    await anonInsert();
    expect(await calls()).toEqual([]);
  });

  test("with them, each insert posts the Database Webhook payload with the shared secret", async () => {
    await hosted().exec(`insert into vault.secrets_store values
      ('notify_meeting_request_url', 'https://ref.supabase.co/functions/v1/notify-meeting-request'),
      ('notify_meeting_request_secret', 's3cret-s3cret-s3cret-s3cret-s3cret')`);
    const row = goodRow({ name: "Webhook Visitor" });
    await anonInsert(row);
    const [call, ...more] = await calls();
    expect(more).toEqual([]);
    expect(call!.url).toBe("https://ref.supabase.co/functions/v1/notify-meeting-request");
    expect(call!.headers).toEqual({
      "Content-Type": "application/json",
      "X-Webhook-Secret": "s3cret-s3cret-s3cret-s3cret-s3cret",
    });
    expect(call!.timeout_milliseconds).toBe(30000);
    expect(call!.body).toMatchObject({
      type: "INSERT",
      table: "contacts",
      schema: "public",
      old_record: null,
      record: row,
    });
  });

  test("a failing pg_net never fails the visitor's insert", async () => {
    await hosted().exec(
      "update vault.secrets_store set decrypted_secret = 'https://fail.example' where name = 'notify_meeting_request_url'",
    );
    const row = goodRow();
    await anonInsert(row);
    const stored = await hosted().query("select 1 from public.contacts where email = $1", [
      row.email,
    ]);
    expect(stored.rows).toHaveLength(1);
    await hosted().exec(
      "update vault.secrets_store set decrypted_secret = 'https://ref.supabase.co/functions/v1/notify-meeting-request' where name = 'notify_meeting_request_url'",
    );
  });

  test("the retry job posts a SWEEP only when a notification is due", async () => {
    await hosted().exec(
      "update public.contact_notifications set status = 'delivered', notified_at = now() where status = 'pending'",
    );
    await hosted().query("select public.retry_contact_notifications()");
    expect(await calls()).toEqual([]);
    await anonInsert();
    await calls();
    await hosted().query("select public.retry_contact_notifications()");
    expect((await calls()).map((call) => call.body)).toEqual([{ type: "SWEEP" }]);
  });
});
