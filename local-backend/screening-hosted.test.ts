/**
 * The screening's hosted parts against stand-ins for Vault, pg_net and pg_cron: the client-address
 * key in Vault, the digest job, and the webhook a confirmation posts.
 */
import { PGlite } from "@electric-sql/pglite";

import { applyMigrations } from "./database";
import { defaultMigrationsDir } from "./paths";
import {
  asVisitor,
  goodRow,
  insertAs,
  openedForTests,
  pageProof,
  pendingProof,
  visitorHeaders,
} from "./test-helpers";

jest.setTimeout(120_000);

describe("hosted parts, against stand-ins for Vault, pg_net and pg_cron", () => {
  const hosted = openedForTests(PGliteFresh);

  async function PGliteFresh(): Promise<PGlite> {
    // Applies the migrations up to the screening one, then adds the stand-ins, then the rest.
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
    const result = await hosted().query<{ body: unknown }>("select body from net.calls");
    await hosted().query("delete from net.calls");
    return result.rows.map((row) => row.body);
  }

  test("the client-address key is created in Vault, and no copy stays in the private table", async () => {
    const vault = await hosted().query<{ secret: string }>(
      "select secret from vault.secrets_store where name = 'request_screening_key'",
    );
    expect(vault.rows[0]!.secret).toMatch(/^[0-9a-f]{64}$/);
    expect((await hosted().query("select * from private.screening_secrets")).rows).toEqual([]);
    expect(
      (await hosted().query<{ k: string }>("select private.screening_key() as k")).rows[0]!.k,
    ).toBe(vault.rows[0]!.secret);
  });

  test("the digest job looks every minute, and posts DIGEST only when something is held", async () => {
    const jobs = await hosted().query(
      "select * from cron.jobs where name = 'notify-meeting-request-digest'",
    );
    expect(jobs.rows).toEqual([
      {
        name: "notify-meeting-request-digest",
        schedule: "* * * * *",
        command: "select public.send_contact_digest()",
      },
    ]);
    await hosted().query("select public.send_contact_digest()");
    expect(await calls()).toEqual([]);
    const proof = await pageProof(hosted());
    await asVisitor(hosted(), visitorHeaders("192.0.2.1"), (tx) => insertAs(tx, goodRow()));
    expect(await calls()).toEqual([]); // suspect: no webhook
    await hosted().query("select public.send_contact_digest()");
    expect(await calls()).toEqual([{ type: "DIGEST" }]);
    const row = goodRow();
    await asVisitor(hosted(), visitorHeaders("192.0.2.2", { "x-form-proof": proof }), (tx) =>
      insertAs(tx, row),
    );
    expect(await calls()).toMatchObject([{ type: "INSERT", record: { email: row.email } }]);
  });

  test("a confirmation posts the webhook at once", async () => {
    await pageProof(hosted());
    const ticket = pendingProof();
    const row = goodRow();
    await asVisitor(
      hosted(),
      visitorHeaders("192.0.2.3", { "x-form-proof": ticket.header }),
      (tx) => insertAs(tx, row),
    );
    expect(await calls()).toEqual([]);
    await hosted().query("select private.form_proof_confirmed($1)", [ticket.ticketHash]);
    expect(await calls()).toMatchObject([{ type: "INSERT", record: { email: row.email } }]);
  });
});
