/**
 * What the migrations do where Supabase's machinery exists, against stand-ins with the signatures
 * of Vault, pg_net and pg_cron.
 */
import crypto from "node:crypto";

import { verifySolution } from "altcha-lib/v1";

import type { FormChallenge } from "../../src/lib/form-proof";
import {
  goodRow,
  pendingProof,
  rejection,
  solveFormChallenge,
  uniqueAddress,
} from "../../local-backend/test-support/helpers";
import { formChallenge, migrate, migrated, one, pageProof, sendRequest } from "./harness";

jest.setTimeout(90_000);

/** Stand-ins with the signatures of Vault, pg_net and pg_cron, recording what they are given. */
const HOSTED_STAND_INS_SQL = `
  create schema vault;
  create table vault.secrets (id uuid primary key default gen_random_uuid(), name text unique, secret text not null, description text);
  create view vault.decrypted_secrets as select id, name, description, secret as decrypted_secret from vault.secrets;
  create function vault.create_secret(new_secret text, new_name text default null, new_description text default '', new_key_id uuid default null)
    returns uuid language sql as $$ insert into vault.secrets (name, secret, description) values (new_name, new_secret, new_description) returning id $$;
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
  create schema cron;
  create table cron.jobs (name text primary key, schedule text, command text);
  create function cron.schedule(job_name text, schedule text, command text) returns bigint language sql as $$
    insert into cron.jobs values (job_name, schedule, command)
      on conflict (name) do update set schedule = excluded.schedule, command = excluded.command;
    select 1::bigint $$;
`;

// The webhook trigger the migration makes where pg_net is installed (PGlite never lists it).
const db = migrated({
  before: HOSTED_STAND_INS_SQL,
  after: `create trigger contacts_40_notify_staff after insert on public.contacts
            for each row execute function public.contacts_post_webhook();`,
});

const URL = "https://ref.supabase.co/functions/v1/notify-meeting-request";
const SECRET = "s3cret-s3cret-s3cret-s3cret-s3cret";

async function calls() {
  type Call = { url: string; body: Record<string, unknown>; headers: unknown; timeout: number };
  const result = await db().query<Call>(
    "select url, body, headers, timeout_milliseconds as timeout from net.calls",
  );
  await db().query("delete from net.calls");
  return result.rows;
}

const vaultSecret = (name: string) =>
  one<string>(db(), "select secret as value from vault.secrets where name = $1", [name]);

const issue = () => formChallenge(db(), uniqueAddress());

const verdict = (header: string) =>
  one<string>(db(), "select private.form_proof_verdict($1) as value", [header]);

async function send(address: string, proof?: string, row = goodRow()) {
  await sendRequest(db(), row, address, proof);
  return row;
}

test("the secrets are made in Vault (256 random bits as hex), and no copy is kept in a table", async () => {
  expect(await vaultSecret("form_proof_secret")).toMatch(/^[0-9a-f]{64}$/);
  expect(await vaultSecret("request_screening_key")).toMatch(/^[0-9a-f]{64}$/);
  expect((await db().query("select * from private.secrets")).rows).toEqual([]);
  expect(await one(db(), "select private.secret('request_screening_key') as value")).toBe(
    await vaultSecret("request_screening_key"),
  );
});

test("an existing page-proof secret in Vault is kept", async () => {
  const existing = "an existing secret, made by staff, 32+ chars";
  const fresh = await migrate(
    `${HOSTED_STAND_INS_SQL} select vault.create_secret('${existing}', 'form_proof_secret');`,
  );
  try {
    expect(await one(fresh, "select count(*)::int as value from vault.secrets")).toBe(2);
    const challenge = await one<FormChallenge>(fresh, "select public.form_challenge() as value");
    expect(await verifySolution(solveFormChallenge(challenge), existing)).toBe(true);
  } finally {
    await fresh.close();
  }
});

test("the digest and report jobs are scheduled with pg_cron (the retry job needs pg_net too)", async () => {
  expect((await db().query("select * from cron.jobs order by name")).rows).toEqual([
    {
      name: "notify-meeting-request-digest",
      schedule: "* * * * *",
      command: "select public.send_contact_digest()",
    },
    {
      name: "site-analytics-weekly-report",
      schedule: "0 7 * * 1",
      command: "select public.send_site_report('weekly')",
    },
  ]);
});

test("without the webhook's Vault secrets an insert succeeds and nothing is posted", async () => {
  await send("198.51.100.1", await pageProof(db()));
  expect(await calls()).toEqual([]);
});

describe("with the webhook's Vault secrets", () => {
  beforeAll(() =>
    db().query(
      `select vault.create_secret($1, 'notify_meeting_request_url'), vault.create_secret($2, 'notify_meeting_request_secret')`,
      [URL, SECRET],
    ),
  );

  test("a page-proved insert posts the Database Webhook payload with the shared secret; a suspect one nothing", async () => {
    const row = await send("198.51.100.1", await pageProof(db()));
    expect(await calls()).toEqual([
      {
        url: URL,
        headers: { "Content-Type": "application/json", "X-Webhook-Secret": SECRET },
        timeout: 30000,
        body: {
          type: "INSERT",
          table: "contacts",
          schema: "public",
          old_record: null,
          record: { ...row, id: expect.any(Number) as unknown, created_at: expect.any(String) },
        },
      },
    ]);
    await send("192.0.2.1");
    expect(await calls()).toEqual([]);
  });

  test("a failing pg_net never fails the visitor's insert", async () => {
    await db().query("update vault.secrets set secret = 'https://fail.example' where name = $1", [
      "notify_meeting_request_url",
    ]);
    await send("198.51.100.2", await pageProof(db())); // stored: send rejects otherwise
    await db().query("update vault.secrets set secret = $1 where name = $2", [
      URL,
      "notify_meeting_request_url",
    ]);
  });

  test("the retry job posts a SWEEP, and the digest job a DIGEST, only when something is due", async () => {
    const runJobs = () =>
      db().exec("select public.retry_contact_notifications(); select public.send_contact_digest()");
    await db().exec(
      "update public.contact_notifications set status = 'delivered', notified_at = now() where status = 'pending'; delete from public.contact_notifications where status = 'digest'",
    );
    await runJobs();
    expect(await calls()).toEqual([]);
    await send("198.51.100.3", await pageProof(db()));
    await send("192.0.2.2");
    await calls();
    await runJobs();
    expect((await calls()).map((call) => call.body)).toEqual([
      { type: "SWEEP" },
      { type: "DIGEST" },
    ]);
  });

  test("a confirmation posts the webhook at once", async () => {
    const ticket = pendingProof();
    const row = await send("192.0.2.3", ticket.header);
    expect(await calls()).toEqual([]);
    await db().query("select private.form_proof_confirmed($1)", [ticket.ticketHash]);
    expect(await calls()).toMatchObject([
      { body: { type: "INSERT", record: { email: row.email } } },
    ]);
  });
});

describe("the page proof's secret in Vault", () => {
  test("challenges are signed with it; rotating it retires outstanding proofs", async () => {
    const payload = solveFormChallenge(await issue());
    expect(await verifySolution(payload, await vaultSecret("form_proof_secret"))).toBe(true);
    await db().query("update vault.secrets set secret = $1 where name = 'form_proof_secret'", [
      crypto.randomBytes(32).toString("hex"),
    ]);
    expect(await verdict(payload)).toBe("invalid");
    expect(await verdict(solveFormChallenge(await issue()))).toBe("verified");
  });

  test("without it, issuing a challenge fails with a message that says what is missing", async () => {
    await db().query("delete from vault.secrets where name = 'form_proof_secret'");
    expect((await rejection(issue())).message).toBe("the secret form_proof_secret is missing");
  });
});
