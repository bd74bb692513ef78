/**
 * The screening migration (supabase/migrations/20261124110000_request_screening.sql) on PGlite:
 * each content signal on realistic and spam text, each cap at its boundary, the verdict's
 * notification state, the page's confirmation, the queue's order, the digest's claim/finish
 * pair, and the hosted parts (Vault key, pg_cron job, webhook) against stand-ins.
 */
import type { PGlite, Transaction } from "@electric-sql/pglite";

import { applyMigrations, openDatabase } from "./database";
import { defaultMigrationsDir } from "./paths";
import { REAL_REQUESTS, SPAM_REQUESTS, spamRequest } from "./screening-corpus";
import { asRole, asVisitor, goodRow, insertAs, pageProof, pendingProof, rejection, visitorHeaders, type ContactRow, type DigestClaim } from "./test-helpers";

jest.setTimeout(120_000);

let db: PGlite;

beforeAll(async () => {
  ({ db } = await openDatabase());
});

afterAll(async () => {
  await db?.close();
});

beforeEach(async () => {
  // Each test starts with no requests, and no address has used its budgets (20261126110000).
  await db.exec(`delete from public.contacts; delete from public.contact_notifications; delete from public.contact_digests;
                 delete from private.one_by_one_pace; delete from private.form_challenges_issued;`);
});

async function send(row: ContactRow, address: string, proof?: string): Promise<number> {
  const headers = visitorHeaders(address, proof === undefined ? {} : { "x-form-proof": proof });
  await asVisitor(db, headers, (tx) => insertAs(tx, row));
  const result = await db.query<{ id: number }>("select max(id)::int as id from public.contacts");
  return result.rows[0]!.id;
}

/** A fresh proof per request: a real one is spent by its first use. */
async function sendVerified(row: ContactRow = goodRow(), address = "198.51.100.7"): Promise<number> {
  return send(row, address, await pageProof(db));
}

interface Screened {
  verdict: string;
  proof: string;
  signals: string[];
  status: string;
  priority: number;
}

async function screened(id: number): Promise<Screened> {
  const result = await db.query<Screened>(
    `select s.verdict, s.proof, s.signals, n.status, n.priority
       from public.contact_screening s join public.contact_notifications n using (contact_id)
      where s.contact_id = $1`,
    [id],
  );
  return result.rows[0]!;
}

async function signalsOf(row: ContactRow): Promise<string[]> {
  const result = await db.query<{ signals: string[] }>("select private.content_signals($1, $2, $3) as signals", [
    row.name,
    row.organization,
    row.message,
  ]);
  return result.rows[0]!.signals;
}

function asService<T>(task: (tx: Transaction) => Promise<T>): Promise<T> {
  return asRole(db, "service_role", task);
}

describe("content signals", () => {
  test("no realistic request is flagged; every spam text is (the figures in docs/notifications.md)", async () => {
    const flaggedReal = [];
    for (const row of REAL_REQUESTS) if ((await signalsOf(row)).length > 0) flaggedReal.push(row.name);
    expect(REAL_REQUESTS.length).toBe(40);
    expect(flaggedReal).toEqual([]);
    const hits = [];
    for (const row of SPAM_REQUESTS) hits.push((await signalsOf(row)).join(","));
    expect(hits).toEqual(["links", "links", "links", "links", "gibberish", "gibberish", "links", "links", "links", "links"]);
  });

  test("links: one link in the message is a real visitor's RFP; two are a signal; any in the name or organization is one", async () => {
    const row = (message: string, name = "Ann Lee", organization = "Metro") => ({ ...goodRow(), name, organization, message });
    expect(await signalsOf(row("Our RFP: https://city.example.gov/rfp"))).toEqual([]);
    expect(await signalsOf(row("See https://a.example and www.b.example"))).toEqual(["links"]);
    expect(await signalsOf(row('<a href="x">y</a> [url=z]w[/url]'))).toEqual(["links"]);
    expect(await signalsOf(row("Hello", "Visit www.spam.example"))).toEqual(["links"]);
    expect(await signalsOf(row("Hello", "Ann", "https://agency.example"))).toEqual(["links"]);
  });

  test("gibberish: two random-looking words that make 30% of the words; one such word or a long name is not", async () => {
    const row = (message: string, name = "Ann Lee") => ({ ...goodRow(), name, organization: "Metro", message });
    expect(await signalsOf(row("qwrtzpsdfg then some ordinary words here"))).toEqual([]);
    // 2 random words of 6 (with the name and organization's words): 2/7 < 30%.
    expect(await signalsOf(row("qwrtzpsdfg xkcdqwrtpl with some ordinary words"))).toEqual([]);
    // 2 of 6: 33%.
    expect(await signalsOf(row("qwrtzpsdfg xkcdqwrtpl with some words"))).toEqual(["gibberish"]);
    expect(await signalsOf(row("Wir brauchen Echtzeitdaten", "Grzegorz Brzęczyszczykiewicz Schwarzschild"))).toEqual([]);
  });

  test("repeated text: the third request with the same free text in the window is flagged, from any sender, and a page-proved one is still e-mailed", async () => {
    const text = "Please see our special offer for transit agencies today";
    const ids = [];
    for (let i = 0; i < 3; i += 1) ids.push(await sendVerified({ ...goodRow(), message: `Challenges/Questions: ${text.toUpperCase()}!` }, `203.0.113.${i}`));
    expect((await screened(ids[1]!)).signals).toEqual([]);
    // Never held for its words: the venue's visitors may well write the same sentence.
    expect(await screened(ids[2]!)).toMatchObject({ signals: ["repeated-text"], verdict: "page-verified", status: "pending", priority: 0 });
    expect(await screened(await send({ ...goodRow(), message: text }, "203.0.113.9"))).toMatchObject({ signals: ["repeated-text"], verdict: "suspect" });
    await db.query("update public.contact_screening set screened_at = screened_at - interval '61 minutes'");
    expect((await screened(await sendVerified({ ...goodRow(), message: text }))).signals).toEqual([]);
  });

  test("repeated text ignores the page's labelled answers and texts under 20 characters", async () => {
    const pageDefaults = REAL_REQUESTS.find((row) => row.name === "Li Wei")!;
    for (let i = 0; i < 4; i += 1) {
      expect((await screened(await sendVerified({ ...pageDefaults, email: `li${i}@agency.example` }))).verdict).toBe("page-verified");
      expect((await screened(await sendVerified({ ...goodRow(), message: "Demo please, thanks!" }))).verdict).toBe("page-verified");
    }
  });
});

describe("verdicts and notification states", () => {
  test("page-verified: notified one by one, first; no or a bad proof: the digest; pending: held 2 minutes", async () => {
    expect(await screened(await sendVerified())).toEqual({ verdict: "page-verified", proof: "verified", signals: [], status: "pending", priority: 0 });
    expect(await screened(await send(goodRow(), "192.0.2.1"))).toMatchObject({ verdict: "suspect", proof: "missing", status: "digest" });
    expect(await screened(await send(goodRow(), "192.0.2.1", "garbage"))).toMatchObject({ verdict: "suspect", proof: "invalid", status: "digest" });
    const held = await send(goodRow(), "192.0.2.1", pendingProof().header);
    expect(await screened(held)).toMatchObject({ verdict: "awaiting-proof", proof: "pending", status: "held" });
    const wait = await db.query<{ s: number }>(
      "select extract(epoch from next_attempt_at - now())::int as s from public.contact_notifications where contact_id = $1",
      [held],
    );
    expect(wait.rows[0]!.s).toBeGreaterThan(110);
    expect(wait.rows[0]!.s).toBeLessThanOrEqual(120);
  });

  test("a page-proved request is never held back for its words alone: spam-looking, it is still e-mailed one by one, its signals noted", async () => {
    for (const [index, row] of SPAM_REQUESTS.entries()) {
      expect(await screened(await sendVerified(row, `203.0.113.${100 + index}`))).toMatchObject({ verdict: "page-verified", proof: "verified", status: "pending", priority: 0 });
    }
    expect((await screened(await sendVerified(spamRequest(0)))).signals).toEqual(["links"]);
    // Without the proof the same text is suspect.
    expect(await screened(await send(spamRequest(0), "192.0.2.2"))).toMatchObject({ verdict: "suspect", status: "digest" });
  });

  test("staff's own inserts (service role) are not screened and are notified as before", async () => {
    await asService((tx) => insertAs(tx, goodRow()));
    const result = await db.query("select n.status, s.contact_id from public.contact_notifications n left join public.contact_screening s using (contact_id)");
    expect(result.rows).toEqual([{ status: "pending", contact_id: null }]);
  });
});

describe("caps on rows without a page proof", () => {
  async function fill(count: number, address: string, proof?: string): Promise<void> {
    for (let i = 0; i < count; i += 1) await send(goodRow(), address, proof);
  }

  test("per client address: the 20th in an hour is stored, the 21st refused with PT429 and a reason", async () => {
    await fill(19, "192.0.2.10");
    await send(goodRow(), "192.0.2.10", pendingProof().header); // pending counts too: the 20th
    const refused = (await rejection(send(goodRow(), "192.0.2.10"))) as { code?: string; message: string; detail?: string; hint?: string };
    expect(refused.code).toBe("PT429");
    expect(refused.message).toBe("Too many meeting requests without the page's proof from this network address");
    expect(refused.detail).toMatch(/At most 20 meeting requests that were not verified/);
    expect(refused.hint).toMatch(/site's form/);
    // Another address, and a page-verified request from the same one, are not affected.
    await send(goodRow(), "192.0.2.11");
    for (let i = 0; i < 30; i += 1) await sendVerified(goodRow(), "192.0.2.10");
    // An hour later the address may send again.
    await db.query("update public.contact_screening set screened_at = screened_at - interval '61 minutes'");
    await send(goodRow(), "192.0.2.10");
  });

  test("a confirmed pending request no longer counts against its address", async () => {
    const tickets = [];
    for (let i = 0; i < 20; i += 1) {
      const ticket = pendingProof();
      tickets.push(ticket);
      await send(goodRow(), "192.0.2.20", ticket.header);
    }
    expect((await rejection(send(goodRow(), "192.0.2.20"))).code).toBe("PT429");
    await db.query("select private.form_proof_confirmed($1)", [tickets[0]!.ticketHash]);
    await send(goodRow(), "192.0.2.20");
  });

  test("overall: 200 in an hour from all addresses together, then PT429 for everyone unverified", async () => {
    for (let client = 0; client < 10; client += 1) await fill(client === 9 ? 19 : 20, `192.0.2.${100 + client}`);
    await send(goodRow(), "192.0.2.120"); // the 200th
    const refused = (await rejection(send(goodRow(), "192.0.2.121"))) as { code?: string; message: string };
    expect(refused.code).toBe("PT429");
    expect(refused.message).toBe("Too many meeting requests without the page's proof right now");
    await sendVerified(goodRow(), "192.0.2.121");
    expect(await db.query("select count(*)::int as n from public.contacts")).toMatchObject({ rows: [{ n: 201 }] });
  });
});

describe("the client address", () => {
  async function key(headers: Record<string, string>): Promise<string> {
    const result = await db.query<{ key: string }>("select private.client_key(private.client_address($1)) as key", [JSON.stringify(headers)]);
    return result.rows[0]!.key;
  }

  test("X-Forwarded-For and X-Real-IP buy no new identity; CF-Connecting-IP names the client", async () => {
    const base = await key({ "cf-connecting-ip": "198.51.100.1" });
    expect(await key({ "cf-connecting-ip": "198.51.100.1", "x-forwarded-for": "1.2.3.4", "x-real-ip": "5.6.7.8" })).toBe(base);
    expect(await key({ "cf-connecting-ip": "198.51.100.2" })).not.toBe(base);
  });

  test("IPv6 counts per /64; no header or a garbage one is the one client 'unknown'", async () => {
    const address = async (value?: string) =>
      (await db.query<{ a: string }>("select private.client_address($1) as a", [JSON.stringify(value === undefined ? {} : { "cf-connecting-ip": value })])).rows[0]!.a;
    expect(await address("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(await address("2001:db8:1:2:ffff:ffff:ffff:ffff")).toBe("2001:db8:1:2::/64");
    expect(await address("203.0.113.9")).toBe("203.0.113.9");
    expect(await address()).toBe("unknown");
    expect(await address("not an address")).toBe("unknown");
    expect((await db.query<{ a: string }>("select private.client_address(null) as a")).rows[0]!.a).toBe("unknown");
  });

  test("only a keyed hash is stored, never the address", async () => {
    const id = await send(goodRow(), "198.51.100.77");
    const row = await db.query<{ client_key: string }>("select client_key from public.contact_screening where contact_id = $1", [id]);
    expect(row.rows[0]!.client_key).toMatch(/^[0-9a-f]{32}$/);
    const dump = await db.query<{ t: string }>("select row_to_json(s)::text as t from public.contact_screening s");
    expect(dump.rows.map((r) => r.t).join()).not.toContain("198.51.100.77");
    const unkeyed = await db.query<{ h: string }>("select left(encode(sha256(convert_to(':198.51.100.77', 'UTF8')), 'hex'), 32) as h");
    expect(row.rows[0]!.client_key).not.toBe(unkeyed.rows[0]!.h);
  });
});

describe("the page's confirmation (private.form_proof_confirmed)", () => {
  test("a pending request becomes page-verified and due at once, once", async () => {
    const ticket = pendingProof();
    const id = await send(goodRow(), "192.0.2.30", ticket.header);
    const confirm = async (hash: string) =>
      (await db.query<{ ok: boolean }>("select private.form_proof_confirmed($1) as ok", [hash])).rows[0]!.ok;
    expect(await confirm(pendingProof().ticketHash)).toBe(false);
    expect(await confirm(ticket.ticketHash)).toBe(true);
    expect(await screened(id)).toEqual({ verdict: "page-verified", proof: "confirmed", signals: [], status: "pending", priority: 0 });
    expect(await confirm(ticket.ticketHash)).toBe(false);
  });

  test("after 30 minutes it is too late; spam-looking content confirmed by the page is e-mailed like any other", async () => {
    const late = pendingProof();
    const lateId = await send(goodRow(), "192.0.2.31", late.header);
    await db.query("update public.contact_screening set screened_at = screened_at - interval '31 minutes' where contact_id = $1", [lateId]);
    expect((await db.query<{ ok: boolean }>("select private.form_proof_confirmed($1) as ok", [late.ticketHash])).rows[0]!.ok).toBe(false);

    const spam = pendingProof();
    const spamId = await send(spamRequest(1), "192.0.2.31", spam.header);
    expect((await db.query<{ ok: boolean }>("select private.form_proof_confirmed($1) as ok", [spam.ticketHash])).rows[0]!.ok).toBe(true);
    expect(await screened(spamId)).toMatchObject({ verdict: "page-verified", proof: "confirmed", signals: ["links"], status: "pending", priority: 0 });
  });

  test("a request already counted in a digest is still notified one by one when confirmed", async () => {
    const ticket = pendingProof();
    const id = await send(goodRow(), "192.0.2.32", ticket.header);
    await db.query("update public.contact_notifications set next_attempt_at = now() - interval '1 second' where contact_id = $1", [id]);
    const [digest] = await claimDigest();
    await finishDigest(digest!.digest_id, digest!.lease_token, null);
    expect((await screened(id)).status).toBe("digested");
    await db.query("select private.form_proof_confirmed($1)", [ticket.ticketHash]);
    expect(await screened(id)).toMatchObject({ status: "pending", priority: 0 });
  });
});

describe("the one-by-one queue", () => {
  test("page-verified requests are claimed before any older backlog", async () => {
    for (let i = 0; i < 5; i += 1) await asService((tx) => insertAs(tx, goodRow()));
    await db.query("update public.contact_notifications set next_attempt_at = now() - interval '1 hour'");
    const real = await sendVerified();
    const claimed = await asService((tx) =>
      tx.query<{ id: number }>("select id from public.claim_due_contact_notifications(max_count => 2, lease_seconds => 60)"),
    );
    expect(claimed.rows[0]!.id).toBe(real);
    expect(claimed.rows).toHaveLength(2);
  });

  test("held and suspect requests are never claimed one by one", async () => {
    await send(goodRow(), "192.0.2.40");
    await send(goodRow(), "192.0.2.40", pendingProof().header);
    await db.query("update public.contact_notifications set next_attempt_at = now() - interval '1 hour'");
    const claimed = await asService((tx) => tx.query("select * from public.claim_due_contact_notifications(max_count => 10)"));
    expect(claimed.rows).toEqual([]);
    const due = await db.query<{ due: boolean }>("select public.has_due_contact_notifications() as due");
    expect(due.rows[0]!.due).toBe(false);
  });
});

async function claimDigest(leaseSeconds = 60): Promise<DigestClaim[]> {
  const result = await asService((tx) => tx.query<DigestClaim>("select * from public.claim_contact_digest(lease_seconds => $1)", [leaseSeconds]));
  return result.rows;
}

async function finishDigest(id: number, lease: string, failure: string | null): Promise<boolean> {
  const result = await asService((tx) =>
    tx.query<{ recorded: boolean }>("select recorded from public.finish_contact_digest(digest_id => $1, lease => $2, failure => $3, retry_in_seconds => 0)", [
      id,
      lease,
      failure,
    ]),
  );
  return result.rows[0]!.recorded;
}

describe("the digest", () => {
  test("lists every held request with its reasons and the start of its text; sent ones are marked and not sent again", async () => {
    for (let i = 0; i < 12; i += 1) await send(spamRequest(i * 10), `192.0.2.${50 + (i % 3)}`); // one text, 12 times
    await send(spamRequest(4), "192.0.2.60", "garbage");
    await send({ ...goodRow(), message: "x".repeat(500) }, "192.0.2.61");
    await sendVerified(); // notified one by one: not in the digest
    const [digest, ...more] = await claimDigest();
    expect(more).toEqual([]);
    expect(digest).toMatchObject({ attempt: 1, request_count: 14, client_count: 5, interval_seconds: 900 });
    expect(digest!.reasons).toEqual({ "no page proof": 13, "invalid page proof": 1 });
    expect(digest!.requests).toHaveLength(14);
    expect(digest!.requests.filter((held) => held.copies === 12)).toHaveLength(12);
    expect(digest!.requests.find((held) => held.name === "John Smith")).toMatchObject({ held_for: ["no page proof"], signals: ["links"] });
    expect(digest!.requests.find((held) => held.truncated)?.message).toHaveLength(400);

    expect(await claimDigest()).toEqual([]); // leased
    expect(await finishDigest(digest!.digest_id, "00000000-0000-0000-0000-000000000000", null)).toBe(false);
    expect(await finishDigest(digest!.digest_id, digest!.lease_token, null)).toBe(true);
    expect(await finishDigest(digest!.digest_id, digest!.lease_token, null)).toBe(false);
    const states = await db.query<{ status: string; n: number }>("select status, count(*)::int as n from public.contact_notifications group by status order by status");
    expect(states.rows).toEqual([
      { status: "digested", n: 14 },
      { status: "pending", n: 1 },
    ]);
    const overview = await db.query<{ suspect: boolean; digest_sent_at: Date | null }>("select suspect, digest_sent_at from public.meeting_requests_overview where notification = 'digested' limit 1");
    expect(overview.rows[0]!.suspect).toBe(true);
    expect(overview.rows[0]!.digest_sent_at).not.toBeNull();
  });

  test("at most one digest per interval: held requests after a sent digest wait for the next", async () => {
    await send(goodRow(), "192.0.2.70");
    const [first] = await claimDigest();
    await finishDigest(first!.digest_id, first!.lease_token, null);
    await send(goodRow(), "192.0.2.70");
    expect(await claimDigest()).toEqual([]);
    const due = await db.query<{ due: boolean }>("select public.has_due_contact_digest() as due");
    expect(due.rows[0]!.due).toBe(false);
    await db.query("update public.contact_digests set sent_at = sent_at - interval '901 seconds'");
    const [second] = await claimDigest();
    expect(second).toMatchObject({ request_count: 1 });
    expect(second!.digest_id).not.toBe(first!.digest_id);
  });

  test("exactly once: a failed or abandoned digest is claimed again with the same id and requests", async () => {
    await send(goodRow(), "192.0.2.80");
    const [first] = await claimDigest(1);
    await send(goodRow(), "192.0.2.80"); // arrives meanwhile: belongs to the next digest
    await db.query("update public.contact_digests set lease_expires_at = now() - interval '1 second'");
    const [again] = await claimDigest();
    expect(again).toMatchObject({ digest_id: first!.digest_id, attempt: 2, request_count: 1 });
    expect(await finishDigest(again!.digest_id, again!.lease_token, "SMTP 451")).toBe(true);
    const [third] = await claimDigest();
    expect(third).toMatchObject({ digest_id: first!.digest_id, attempt: 3, request_count: 1 });
    await finishDigest(third!.digest_id, third!.lease_token, null);
    const sent = await db.query<{ n: number }>("select count(*)::int as n from public.contact_digests where sent_at is not null");
    expect(sent.rows[0]!.n).toBe(1);
  });

  test("held requests join the digest only after their wait for the page's proof; nothing held, nothing due", async () => {
    expect((await db.query<{ due: boolean }>("select public.has_due_contact_digest() as due")).rows[0]!.due).toBe(false);
    const id = await send(goodRow(), "192.0.2.90", pendingProof().header);
    expect(await claimDigest()).toEqual([]);
    await db.query("update public.contact_notifications set next_attempt_at = now() - interval '1 second' where contact_id = $1", [id]);
    const [digest] = await claimDigest();
    expect(digest!.reasons).toEqual({ "page proof never confirmed": 1 });
  });

  test("a digest whose every request was confirmed meanwhile is dropped, not sent empty", async () => {
    const ticket = pendingProof();
    const id = await send(goodRow(), "192.0.2.91", ticket.header);
    await db.query("update public.contact_notifications set next_attempt_at = now() - interval '1 second' where contact_id = $1", [id]);
    const [digest] = await claimDigest(1);
    await db.query("select private.form_proof_confirmed($1)", [ticket.ticketHash]);
    await db.query("update public.contact_digests set lease_expires_at = now() - interval '1 second'");
    expect(await claimDigest()).toEqual([]);
    expect((await db.query("select * from public.contact_digests where id = $1", [digest!.digest_id])).rows).toEqual([]);
  });

  test("only the service role may claim or finish digests", async () => {
    for (const role of ["anon", "authenticated"] as const) {
      const error = await rejection(asRole(db, role, (tx) => tx.query("select * from public.claim_contact_digest()")));
      expect(error.message).toMatch(/permission denied/);
    }
  });
});

describe("hosted parts, against stand-ins for Vault, pg_net and pg_cron", () => {
  let hosted: PGlite;

  beforeAll(async () => {
    hosted = await PGliteFresh();
  });

  afterAll(async () => {
    await hosted?.close();
  });

  async function PGliteFresh(): Promise<PGlite> {
    // Applies the migrations up to the screening one, then adds the stand-ins, then the rest.
    const { PGlite } = await import("@electric-sql/pglite");
    const fresh = await PGlite.create();
    await fresh.exec(`
      create role anon nologin noinherit; create role authenticated nologin noinherit;
      create role service_role nologin noinherit bypassrls;
      create schema vault;
      create table vault.secrets_store (name text unique, secret text, description text);
      create view vault.decrypted_secrets as select name, secret as decrypted_secret from vault.secrets_store;
      create function vault.create_secret(new_secret text, new_name text default null, new_description text default '', new_key_id uuid default null)
        returns uuid language sql as $$ insert into vault.secrets_store values (new_name, new_secret, new_description); select gen_random_uuid() $$;
      create schema cron;
      create table cron.jobs (name text primary key, schedule text, command text);
      create function cron.schedule(job_name text, schedule text, command text) returns bigint language sql as $$
        insert into cron.jobs values (job_name, schedule, command)
          on conflict (name) do update set schedule = excluded.schedule, command = excluded.command;
        select 1::bigint $$;
      create schema net;
      create table net.calls (url text, body jsonb);
      create function net.http_post(url text, body jsonb default '{}'::jsonb, params jsonb default '{}'::jsonb,
                                    headers jsonb default '{}'::jsonb, timeout_milliseconds int default 1000) returns bigint
        language sql as $$ insert into net.calls values (url, body); select 1::bigint $$;
      insert into vault.secrets_store values
        ('notify_meeting_request_url', 'https://ref.supabase.co/functions/v1/notify-meeting-request', ''),
        ('notify_meeting_request_secret', 's3cret-s3cret-s3cret-s3cret-s3cret', '');`);
    await fresh.exec(`create schema if not exists local_backend;
      create table if not exists local_backend.applied_migrations (name text primary key, checksum text not null, applied_at timestamptz not null default now());`);
    await applyMigrations(fresh, defaultMigrationsDir());
    // The hosted webhook trigger (the first notification migration makes it where pg_net is installed).
    await fresh.exec(`create trigger contacts_40_notify_staff after insert on public.contacts
      for each row execute function public.contacts_post_webhook();`);
    return fresh;
  }

  async function calls(): Promise<unknown[]> {
    const result = await hosted.query<{ body: unknown }>("select body from net.calls");
    await hosted.query("delete from net.calls");
    return result.rows.map((row) => row.body);
  }

  test("the client-address key is created in Vault, and no copy stays in the private table", async () => {
    const vault = await hosted.query<{ secret: string }>("select secret from vault.secrets_store where name = 'request_screening_key'");
    expect(vault.rows[0]!.secret).toMatch(/^[0-9a-f]{64}$/);
    expect((await hosted.query("select * from private.screening_secrets")).rows).toEqual([]);
    expect((await hosted.query<{ k: string }>("select private.screening_key() as k")).rows[0]!.k).toBe(vault.rows[0]!.secret);
  });

  test("the digest job looks every minute, and posts DIGEST only when something is held", async () => {
    const jobs = await hosted.query("select * from cron.jobs where name = 'notify-meeting-request-digest'");
    expect(jobs.rows).toEqual([{ name: "notify-meeting-request-digest", schedule: "* * * * *", command: "select public.send_contact_digest()" }]);
    await hosted.query("select public.send_contact_digest()");
    expect(await calls()).toEqual([]);
    const proof = await pageProof(hosted);
    await asVisitor(hosted, visitorHeaders("192.0.2.1"), (tx) => insertAs(tx, goodRow()));
    expect(await calls()).toEqual([]); // suspect: no webhook
    await hosted.query("select public.send_contact_digest()");
    expect(await calls()).toEqual([{ type: "DIGEST" }]);
    const row = goodRow();
    await asVisitor(hosted, visitorHeaders("192.0.2.2", { "x-form-proof": proof }), (tx) => insertAs(tx, row));
    expect(await calls()).toMatchObject([{ type: "INSERT", record: { email: row.email } }]);
  });

  test("a confirmation posts the webhook at once", async () => {
    await pageProof(hosted);
    const ticket = pendingProof();
    const row = goodRow();
    await asVisitor(hosted, visitorHeaders("192.0.2.3", { "x-form-proof": ticket.header }), (tx) => insertAs(tx, row));
    expect(await calls()).toEqual([]);
    await hosted.query("select private.form_proof_confirmed($1)", [ticket.ticketHash]);
    expect(await calls()).toMatchObject([{ type: "INSERT", record: { email: row.email } }]);
  });
});
