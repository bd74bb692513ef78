-- Screening of the visitors' meeting requests (docs/notifications.md, "Screening"; issue 19).
--
-- The anon key is public, so any script can POST to /rest/v1/contacts without the page. Every
-- anon insert is therefore screened in its own transaction, and the verdict decides how staff
-- hear of it; nothing acknowledged is ever dropped:
--   * page-verified (the page's proof of work checked, see 20261124100000_form_proof.sql, and
--     no content signal): e-mailed one by one at once, ahead of everything else in the queue,
--     never refused or delayed for volume;
--   * awaiting-proof (the page sent `pending:<ticket>` because its proof was not ready at the
--     tap, no content signal): held for HOLD_FOR_PROOF (5 minutes); confirmed by the page
--     (private.form_proof_confirmed) it becomes page-verified and is e-mailed at once,
--     otherwise it falls to the digest;
--   * suspect (no or a bad proof, or spam-looking content): stored, never e-mailed one by one,
--     counted and sampled in the digest (at most one e-mail per 20 minutes).
-- Rows without a page proof are capped (HTTP 429, SQLSTATE PT429): 20 per client address and
-- 200 in all per rolling hour (private.screening_limits), so a script cannot fill the database. Staff's own inserts
-- (service_role) are not screened.
--
-- Signals (figures in docs/notifications.md, measured by local-backend/screening.test.ts on
-- local-backend/screening-corpus.ts):
--   links          two or more links (http://, https://, www.) or HTML/BBCode links, or any link
--                  in the name or organization;
--   gibberish      at least 2 random-looking words, making up 30% or more of the words;
--   repeated-text  the same message (case, spaces and punctuation ignored, 20+ characters) in 2
--                  or more other requests of the past hour.
-- Client address: hosted Supabase sits behind Cloudflare, which sets CF-Connecting-IP to the
-- address that connected to it, replacing any value a client sent; X-Forwarded-For and
-- X-Real-IP pass a client's own value through and are never read here. IPv6 addresses count
-- per /64 (one subscriber's allocation), so rotating addresses inside it buys nothing. The
-- address is stored only as a keyed hash (the key in Vault as `request_screening_key` on
-- hosted projects, elsewhere in private.screening_secrets).

-- ---------------------------------------------------------------------------------------------
-- The notification states gain three: held (awaiting the page's proof until next_attempt_at),
-- digest (waiting for the next digest) and digested (counted in a sent digest). Only 'pending'
-- rows are ever claimed one by one, so suspect requests can never reach that path.
alter table public.contact_notifications drop constraint contact_notifications_status;
alter table public.contact_notifications add constraint contact_notifications_status
  check (status in ('pending', 'delivered', 'skipped', 'held', 'digest', 'digested'));

-- 0 = page-verified, served first; 1 = everything else that is notified one by one (staff's own
-- inserts, requests stored before screening).
alter table public.contact_notifications add column priority smallint not null default 1;

create index contact_notifications_priority_due_idx
  on public.contact_notifications (priority, next_attempt_at, contact_id)
  where status = 'pending';


-- One row per digest e-mail: claimed and finished like a notification (lease, attempts), sent once.
create table public.contact_digests (
  id bigint generated always as identity primary key,
  created_at timestamptz not null default now(),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  lease_token uuid,
  lease_expires_at timestamptz,
  sent_at timestamptz,
  last_error text,
  -- What the digest e-mail said, for staff's record.
  request_count integer
);

comment on table public.contact_digests is
  'The digest e-mails of held (suspect) meeting requests: one row per e-mail, written by the notify-meeting-request Edge Function as service_role.';

alter table public.contact_notifications add column digest_id bigint references public.contact_digests (id);
create index contact_notifications_digest_idx on public.contact_notifications (digest_id) where digest_id is not null;
create index contact_notifications_waiting_digest_idx
  on public.contact_notifications (next_attempt_at)
  where status in ('digest', 'held') and digest_id is null;

revoke all on table public.contact_digests from anon, authenticated;
grant select, insert, update, delete on table public.contact_digests to service_role;
alter table public.contact_digests enable row level security;
create policy "Service role manages digests"
  on public.contact_digests for all to service_role
  using (true) with check (true);


-- The verdict and signals of each screened request. Staff read it (service role, dashboard);
-- the API roles have no privilege on it.
create table public.contact_screening (
  contact_id bigint primary key references public.contacts (id) on delete cascade,
  screened_at timestamptz not null default now(),
  verdict text not null,
  -- What private.form_proof_verdict said at the insert; 'confirmed' = pending, then confirmed.
  proof text not null,
  signals text[] not null default '{}',
  -- Keyed hash of the client address (hex, 128 bits); never the address itself.
  client_key text not null,
  -- Requests from the same client address in the hour before this one (all verdicts).
  client_recent integer not null default 0,
  -- md5 of the message with case, whitespace and punctuation removed (the repeated-text signal).
  text_fingerprint text,
  -- sha256 of the page's pending ticket (from private.form_proof_ticket_hash).
  ticket_hash text,
  confirmed_at timestamptz,
  constraint contact_screening_verdict check (verdict in ('page-verified', 'awaiting-proof', 'suspect')),
  constraint contact_screening_proof check (proof in ('verified', 'pending', 'confirmed', 'invalid', 'missing'))
);

comment on table public.contact_screening is
  'How each visitor request was screened (page proof, content signals, client volume). Staff read it; visitors cannot.';

create index contact_screening_client_idx on public.contact_screening (client_key, screened_at);
create index contact_screening_unverified_idx on public.contact_screening (screened_at)
  where proof in ('pending', 'invalid', 'missing');
create index contact_screening_fingerprint_idx on public.contact_screening (text_fingerprint, screened_at);
create index contact_screening_ticket_idx on public.contact_screening (ticket_hash) where ticket_hash is not null;

revoke all on table public.contact_screening from anon, authenticated;
grant select, insert, update, delete on table public.contact_screening to service_role;
alter table public.contact_screening enable row level security;
create policy "Service role manages screening"
  on public.contact_screening for all to service_role
  using (true) with check (true);


-- ---------------------------------------------------------------------------------------------
-- The caps on rows without a page proof, per rolling hour (one row; staff may change them with
-- SQL, e.g. for an event where many visitors share one address and JavaScript is blocked).
create table private.screening_limits (
  only_row boolean primary key default true check (only_row),
  per_client_per_hour integer not null check (per_client_per_hour >= 0),
  overall_per_hour integer not null check (overall_per_hour >= 0)
);
insert into private.screening_limits (per_client_per_hour, overall_per_hour) values (20, 200);
revoke all on table private.screening_limits from public, anon, authenticated, service_role;
alter table private.screening_limits enable row level security;

-- The key of the client-address hash. Vault on hosted projects (created below when Vault
-- exists); elsewhere a table no API role can reach.
create table private.screening_secrets (
  name text primary key,
  secret text not null
);
revoke all on table private.screening_secrets from public, anon, authenticated, service_role;
alter table private.screening_secrets enable row level security;

insert into private.screening_secrets (name, secret)
  values ('request_screening_key',
          pg_catalog.replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''));

create function private.screening_key()
  returns text
  language plpgsql
  stable
  security definer
  set search_path = ''
as $$
declare
  key text;
begin
  if pg_catalog.to_regclass('vault.decrypted_secrets') is not null then
    execute 'select decrypted_secret from vault.decrypted_secrets where name = $1 limit 1'
      into key using 'request_screening_key';
  end if;
  if key is null then
    select s.secret into key from private.screening_secrets s where s.name = 'request_screening_key';
  end if;
  return key;
end;
$$;

-- The client as the gateway names it: CF-Connecting-IP (see the top of this file). IPv4 as is,
-- IPv6 as its /64; no header or an unreadable one all count as one client, "unknown", so
-- leaving the header out buys no identity either.
create function private.client_address(headers text)
  returns text
  language plpgsql
  immutable
  set search_path = ''
as $$
declare
  raw text;
  address inet;
begin
  begin
    raw := pg_catalog.btrim(headers::json ->> 'cf-connecting-ip');
  exception when others then
    raw := null;
  end;
  if raw is null or raw = '' then
    return 'unknown';
  end if;
  begin
    address := raw::inet;
  exception when others then
    return 'unknown';
  end;
  if pg_catalog.family(address) = 6 then
    return pg_catalog.network(pg_catalog.set_masklen(address, 64))::text;
  end if;
  return pg_catalog.host(address);
end;
$$;

create function private.client_key(address text)
  returns text
  language sql
  stable
  set search_path = ''
as $$
  select pg_catalog.left(pg_catalog.encode(
    pg_catalog.sha256(pg_catalog.convert_to(private.screening_key() || ':' || address, 'UTF8')), 'hex'), 32);
$$;


-- ---------------------------------------------------------------------------------------------
-- Content signals that need no other row (pure; the repeated-text signal is in the trigger).
create function private.content_signals(name text, organization text, message text)
  returns text[]
  language plpgsql
  immutable
  set search_path = ''
as $$
declare
  link constant text := '(https?://|www\.|<a\s|\[url)';
  signals text[] := '{}';
  all_text text := name || ' ' || organization || ' ' || message;
  words integer;
  random_words integer;
begin
  if (select count(*) from pg_catalog.regexp_matches(message, link, 'gi')) >= 2
     or name ~* link or organization ~* link then
    signals := signals || 'links'::text;
  end if;

  -- Words of 4+ Latin letters; random-looking: a run of 6 consonants, or 8+ letters with fewer
  -- than one vowel in six. Names such as "Schwarzschild" have one such word among many.
  select count(*),
         count(*) filter (where w ~* '[bcdfghjklmnpqrstvwxz]{6}'
                             or (pg_catalog.length(w) >= 8
                                 and pg_catalog.length(pg_catalog.regexp_replace(w, '[^aeiouyAEIOUY]', '', 'g')) * 6 < pg_catalog.length(w)))
    into words, random_words
    from (select m[1] as w from pg_catalog.regexp_matches(all_text, '([A-Za-z]{4,})', 'g') m) t;
  if random_words >= 2 and random_words * 10 >= words * 3 then
    signals := signals || 'gibberish'::text;
  end if;
  return signals;
end;
$$;

-- The page writes every message as labelled lines (src/lib/meeting-request.ts); their answers
-- (phone, fleet size, products, time, or "Not provided") are alike across real visitors, so only
-- the free text counts: the Challenges/Questions answer, or the whole message when it is not in
-- the page's format. Case, whitespace and punctuation are ignored; under 20 characters, none.
create function private.text_fingerprint(message text)
  returns text
  language sql
  immutable
  set search_path = ''
as $$
  select case when pg_catalog.length(t) >= 20 then pg_catalog.md5(t) end
    from (select pg_catalog.regexp_replace(pg_catalog.lower(
            pg_catalog.regexp_replace(
              pg_catalog.regexp_replace(message, '^(Phone|Fleet Size|Products of Interest|Preferred Meeting Time): [^\n]*$', '', 'gn'),
              '^Challenges/Questions: (None provided$)?', '', 'gn')),
            '[[:space:][:punct:]]+', '', 'g') as t) n;
$$;


-- ---------------------------------------------------------------------------------------------
-- The screening trigger: after the row exists (the screening row references it), before its
-- notification row is made (trigger names fire in order: 25 before 30).
create function public.contacts_screen_request()
  returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  headers text := pg_catalog.current_setting('request.headers', true);
  proof_header text;
  proof text;
  client text;
  recent integer;
  unverified integer;
  signals text[];
  fingerprint text;
  verdict text;
  per_client_cap integer;
  overall_cap integer;
begin
  select l.per_client_per_hour, l.overall_per_hour into per_client_cap, overall_cap from private.screening_limits l;
  begin
    proof_header := headers::json ->> 'x-form-proof';
  exception when others then
    proof_header := null;
  end;
  proof := private.form_proof_verdict(proof_header);
  client := private.client_key(private.client_address(headers));

  if proof <> 'verified' then
    -- One at a time past this point, so concurrent requests count one another.
    perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended('public.contact_screening unverified', 0));
    select count(*) into unverified
      from public.contact_screening s
     where s.proof in ('pending', 'invalid', 'missing')
       and s.screened_at > pg_catalog.now() - interval '1 hour';
    if unverified >= overall_cap then
      raise exception using
        errcode = 'PT429',
        message = 'Too many meeting requests without the page''s proof right now',
        detail = pg_catalog.format('At most %s meeting requests that were not verified as sent from the site''s page are accepted per hour, from all senders together.', overall_cap),
        hint = 'Send the request from the site''s form, which proves it came from the page, or try again in an hour.';
    end if;
    select count(*) into unverified
      from public.contact_screening s
     where s.client_key = client
       and s.proof in ('pending', 'invalid', 'missing')
       and s.screened_at > pg_catalog.now() - interval '1 hour';
    if unverified >= per_client_cap then
      raise exception using
        errcode = 'PT429',
        message = 'Too many meeting requests without the page''s proof from this network address',
        detail = pg_catalog.format('At most %s meeting requests that were not verified as sent from the site''s page are accepted per network address per hour.', per_client_cap),
        hint = 'Send the request from the site''s form, which proves it came from the page, or try again in an hour.';
    end if;
  end if;

  select count(*) into recent
    from public.contact_screening s
   where s.client_key = client and s.screened_at > pg_catalog.now() - interval '1 hour';

  signals := private.content_signals(new.name, new.organization, new.message);
  fingerprint := private.text_fingerprint(new.message);
  if fingerprint is not null and (
       select count(*) from public.contact_screening s
        where s.text_fingerprint = fingerprint and s.screened_at > pg_catalog.now() - interval '1 hour'
     ) >= 2 then
    signals := signals || 'repeated-text'::text;
  end if;

  verdict := case
    when signals <> '{}' then 'suspect'
    when proof = 'verified' then 'page-verified'
    when proof = 'pending' then 'awaiting-proof'
    else 'suspect'
  end;

  insert into public.contact_screening
    (contact_id, verdict, proof, signals, client_key, client_recent, text_fingerprint, ticket_hash)
  values
    (new.id, verdict, proof, signals, client, recent, fingerprint,
     case when proof = 'pending' then private.form_proof_ticket_hash(proof_header) end);
  return null;
end;
$$;

revoke all on function public.contacts_screen_request() from public, anon, authenticated;

create trigger contacts_25_screen_request
  after insert on public.contacts
  for each row
  when (current_user in ('anon', 'authenticated'))
  execute function public.contacts_screen_request();


-- How long a request whose proof was not ready at the tap waits for the page's confirmation.
create function private.hold_for_proof()
  returns interval
  language sql
  immutable
  set search_path = ''
as $$ select interval '5 minutes' $$;

-- The outbox row, now by verdict (replaces the first version of 20251123120000).
create or replace function public.contacts_queue_notification()
  returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  verdict text;
begin
  select s.verdict into verdict from public.contact_screening s where s.contact_id = new.id;
  insert into public.contact_notifications (contact_id, status, priority, next_attempt_at)
  values (
    new.id,
    case verdict when 'suspect' then 'digest' when 'awaiting-proof' then 'held' else 'pending' end,
    case when verdict = 'page-verified' then 0 else 1 end,
    case when verdict = 'awaiting-proof' then pg_catalog.now() + private.hold_for_proof() else pg_catalog.now() end
  );
  return null;
end;
$$;

-- The hosted webhook posts only what is notified one by one: a flood of suspect requests
-- makes no function calls at all.
create or replace function public.contacts_post_webhook()
  returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
begin
  if exists (select from public.contact_notifications n where n.contact_id = new.id and n.status = 'pending') then
    perform public.post_to_notify_function(public.contact_webhook_payload(new));
  end if;
  return null;
end;
$$;


-- Called by public.confirm_form_proof (20261124100000_form_proof.sql) once the page's proof for
-- a pending ticket checks out: the request becomes page-verified (unless its content is
-- suspect) and its notification due at once, ahead of everything unverified. Only within 30
-- minutes of the insert, and once. True when a request was confirmed.
create function private.form_proof_confirmed(ticket_hash text)
  returns boolean
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  confirmed record;
  any_confirmed boolean := false;
begin
  for confirmed in
    update public.contact_screening s
       set proof = 'confirmed',
           confirmed_at = pg_catalog.now(),
           verdict = case when s.signals = '{}' then 'page-verified' else s.verdict end
     where s.ticket_hash = form_proof_confirmed.ticket_hash
       and s.proof = 'pending'
       and s.screened_at > pg_catalog.now() - interval '30 minutes'
    returning s.contact_id, s.verdict
  loop
    any_confirmed := true;
    if confirmed.verdict = 'page-verified' then
      update public.contact_notifications n
         set status = 'pending', priority = 0, next_attempt_at = pg_catalog.now()
       where n.contact_id = confirmed.contact_id
         and n.status in ('held', 'digest', 'digested');
      -- Where the hosted webhook is wired (pg_net; 20251123120000), post it now, as an insert does.
      if found and exists (select from pg_catalog.pg_trigger t
                            where t.tgrelid = 'public.contacts'::regclass and t.tgname = 'contacts_40_notify_staff') then
        perform public.post_to_notify_function(public.contact_webhook_payload(c))
           from public.contacts c where c.id = confirmed.contact_id;
      end if;
    end if;
  end loop;
  return any_confirmed;
end;
$$;

revoke all on function private.form_proof_confirmed(text) from public, anon, authenticated;


-- ---------------------------------------------------------------------------------------------
-- The one-by-one queue serves page-verified requests first (replaces the first version).
create or replace function public.claim_due_contact_notifications(max_count integer default 10, lease_seconds integer default 120)
  returns table (
    lease_token uuid, attempt integer,
    id bigint, created_at timestamptz, name text, email text, organization text, message text
  )
  language sql
  volatile
  set search_path = ''
as $$
  with due as (
    select n.contact_id
      from public.contact_notifications n
     where n.status = 'pending'
       and n.next_attempt_at <= pg_catalog.now()
       and (n.lease_expires_at is null or n.lease_expires_at <= pg_catalog.now())
     order by n.priority, n.next_attempt_at, n.contact_id
     limit max_count
     for update skip locked
  ), claimed as (
    update public.contact_notifications n
       set lease_token = gen_random_uuid(),
           lease_expires_at = pg_catalog.now() + pg_catalog.make_interval(secs => lease_seconds),
           attempts = n.attempts + 1,
           last_attempt_at = pg_catalog.now()
      from due
     where n.contact_id = due.contact_id
    returning n.contact_id, n.lease_token, n.attempts, n.priority
  )
  select cl.lease_token, cl.attempts, c.id, c.created_at, c.name, c.email, c.organization, c.message
    from claimed cl
    join public.contacts c on c.id = cl.contact_id
   order by cl.priority, c.id;
$$;


-- ---------------------------------------------------------------------------------------------
-- The digest. Requests waiting for it: status 'digest' not yet in a digest, and 'held' ones
-- whose wait for the page's proof is over.
create function private.digest_waiting()
  returns setof public.contact_notifications
  language sql
  stable
  set search_path = ''
as $$
  select n.* from public.contact_notifications n
   where n.digest_id is null
     and (n.status = 'digest' or (n.status = 'held' and n.next_attempt_at <= pg_catalog.now()));
$$;

-- Whether a digest should be sent now: an unsent one whose lease and back-off are over, or
-- requests waiting and no digest sent in the past min_interval_seconds.
create function public.has_due_contact_digest(min_interval_seconds integer default 1200)
  returns boolean
  language sql
  stable
  security definer
  set search_path = ''
as $$
  select exists (
           select from public.contact_digests d
            where d.sent_at is null
              and d.next_attempt_at <= pg_catalog.now()
              and (d.lease_expires_at is null or d.lease_expires_at <= pg_catalog.now()))
      or (not exists (select from public.contact_digests d where d.sent_at is null)
          and not exists (
            select from public.contact_digests d
             where d.sent_at > pg_catalog.now() - pg_catalog.make_interval(secs => min_interval_seconds))
          and exists (select from private.digest_waiting()));
$$;

-- Claims the next digest: the unsent one again (same requests, same id, so the same
-- Message-ID), or a new one with every request waiting. Nothing while another caller holds
-- the lease or within min_interval_seconds of the last sent digest. Returns the counts and up
-- to max_samples samples (one per distinct message, most repeated first).
create function public.claim_contact_digest(
  min_interval_seconds integer default 1200,
  max_samples integer default 8,
  lease_seconds integer default 120
)
  returns table (
    digest_id bigint, lease_token uuid, attempt integer,
    request_count integer, first_at timestamptz, last_at timestamptz,
    client_count integer, reasons jsonb, samples jsonb
  )
  language plpgsql
  volatile
  set search_path = ''
as $$
#variable_conflict use_column
declare
  digest public.contact_digests;
begin
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended('public.contact_digests claim', 0));
  if not public.has_due_contact_digest(min_interval_seconds) then
    return;
  end if;
  select * into digest from public.contact_digests d where d.sent_at is null order by d.id limit 1;
  if not found then
    insert into public.contact_digests default values returning * into digest;
    update public.contact_notifications n
       set status = 'digest', digest_id = digest.id
      from private.digest_waiting() w
     where n.contact_id = w.contact_id;
  end if;
  if not exists (select from public.contact_notifications n where n.digest_id = digest.id and n.status = 'digest') then
    -- Everything in it was confirmed by the page meanwhile and notified one by one.
    update public.contact_notifications n set digest_id = null where n.digest_id = digest.id;
    delete from public.contact_digests d where d.id = digest.id;
    return;
  end if;
  update public.contact_digests d
     set lease_token = gen_random_uuid(),
         lease_expires_at = pg_catalog.now() + pg_catalog.make_interval(secs => lease_seconds),
         attempts = d.attempts + 1
   where d.id = digest.id
  returning * into digest;

  return query
  with held as (
    select c.*, s.proof, coalesce(s.signals, '{}') as signals, s.client_key, s.text_fingerprint
      from public.contact_notifications n
      join public.contacts c on c.id = n.contact_id
      left join public.contact_screening s on s.contact_id = n.contact_id
     where n.digest_id = digest.id and n.status = 'digest'
  ), reason_rows as (
    select r as reason from held,
      lateral pg_catalog.unnest(
        held.signals || case
          when held.proof = 'missing' then array['no page proof']
          when held.proof = 'invalid' then array['invalid page proof']
          when held.proof = 'pending' then array['page proof never confirmed']
          else '{}'::text[]
        end) r
  ), copies as (
    select coalesce(h.text_fingerprint, 'id:' || h.id) as fingerprint, count(*)::integer as n, min(h.id) as first_id
      from held h group by 1
  ), sample_rows as (
    select h.id, h.created_at, h.name, h.organization, h.email,
           pg_catalog.left(h.message, 400) as message,
           pg_catalog.char_length(h.message) > 400 as truncated,
           h.signals, h.proof, cp.n as copies
      from copies cp join held h on h.id = cp.first_id
     order by cp.n desc, h.id
     limit max_samples
  )
  select digest.id, digest.lease_token, digest.attempts,
         (select count(*)::integer from held),
         (select min(held.created_at) from held),
         (select max(held.created_at) from held),
         (select count(distinct held.client_key)::integer from held),
         coalesce((select pg_catalog.jsonb_object_agg(x.reason, x.n)
                     from (select rr.reason, count(*)::integer as n from reason_rows rr group by rr.reason) x), '{}'::jsonb),
         coalesce((select pg_catalog.jsonb_agg(pg_catalog.to_jsonb(sr) order by sr.copies desc, sr.id) from sample_rows sr), '[]'::jsonb);
end;
$$;

-- Records the outcome of a claimed digest. failure null = sent: its requests become
-- 'digested'. Otherwise it is tried again (same requests) after retry_in_seconds. Ignored
-- (recorded = false) unless the caller still holds the lease.
create function public.finish_contact_digest(
  digest_id bigint,
  lease uuid,
  failure text default null,
  retry_in_seconds double precision default 300
)
  -- Two columns, like finish_contact_notification (PostgREST answers [{"digest": …, "recorded": …}]).
  returns table (digest bigint, recorded boolean)
  language plpgsql
  volatile
  set search_path = ''
as $$
#variable_conflict use_column
declare
  count_sent integer;
begin
  update public.contact_digests d
     set sent_at = case when failure is null then pg_catalog.now() end,
         last_error = pg_catalog.left(failure, 2000),
         next_attempt_at = case
           when failure is null then d.next_attempt_at
           else pg_catalog.now() + pg_catalog.make_interval(secs => greatest(retry_in_seconds, 0))
         end,
         lease_token = null,
         lease_expires_at = null
   where d.id = finish_contact_digest.digest_id
     and d.sent_at is null
     and d.lease_token = lease;
  if not found then
    return query select finish_contact_digest.digest_id, false;
    return;
  end if;
  if failure is null then
    update public.contact_notifications n
       set status = 'digested', last_error = null
     where n.digest_id = finish_contact_digest.digest_id and n.status = 'digest';
    get diagnostics count_sent = row_count;
    update public.contact_digests d set request_count = count_sent where d.id = finish_contact_digest.digest_id;
  end if;
  return query select finish_contact_digest.digest_id, true;
end;
$$;

-- Called by pg_cron every five minutes: asks the function for a digest, only when one is due.
create function public.send_contact_digest()
  returns void
  language plpgsql
  security definer
  set search_path = ''
as $$
begin
  if public.has_due_contact_digest() then
    perform public.post_to_notify_function('{"type": "DIGEST"}'::jsonb);
  end if;
end;
$$;

revoke all on function private.digest_waiting() from public, anon, authenticated;
-- The claim runs as its caller, the service role, like the notification claims.
grant usage on schema private to service_role;
grant execute on function private.digest_waiting() to service_role;
revoke all on function public.has_due_contact_digest(integer) from public, anon, authenticated;
revoke all on function public.claim_contact_digest(integer, integer, integer) from public, anon, authenticated;
revoke all on function public.finish_contact_digest(bigint, uuid, text, double precision) from public, anon, authenticated;
revoke all on function public.send_contact_digest() from public, anon, authenticated;
grant execute on function public.has_due_contact_digest(integer) to service_role;
grant execute on function public.claim_contact_digest(integer, integer, integer) to service_role;
grant execute on function public.finish_contact_digest(bigint, uuid, text, double precision) to service_role;
revoke all on function private.screening_key() from public, anon, authenticated;
revoke all on function private.client_key(text) from public, anon, authenticated;
revoke all on function private.client_address(text) from public, anon, authenticated;
revoke all on function private.content_signals(text, text, text) from public, anon, authenticated;
revoke all on function private.text_fingerprint(text) from public, anon, authenticated;
revoke all on function private.hold_for_proof() from public, anon, authenticated;


-- ---------------------------------------------------------------------------------------------
-- What staff look at, now with the screening (replaces the view of 20251123120000; the new
-- columns come before the message so the long text stays last).
drop view public.meeting_requests_overview;
create view public.meeting_requests_overview
  with (security_invoker = true)
as
  select c.id,
         c.created_at,
         c.name,
         c.organization,
         c.email,
         coalesce(s.verdict <> 'page-verified', false) as suspect,
         s.verdict as screening,
         s.proof as page_proof,
         s.signals as screening_signals,
         s.client_recent as same_client_past_hour,
         n.status as notification,
         n.notified_at,
         n.attempts as notification_attempts,
         n.last_error as notification_error,
         case when n.status in ('pending', 'held') then n.next_attempt_at end as next_attempt_at,
         d.sent_at as digest_sent_at,
         c.message
    from public.contacts c
    left join public.contact_notifications n on n.contact_id = c.id
    left join public.contact_screening s on s.contact_id = c.id
    left join public.contact_digests d on d.id = n.digest_id
   order by c.created_at desc, c.id desc;

revoke all on table public.meeting_requests_overview from anon, authenticated;
grant select on table public.meeting_requests_overview to service_role;


-- ---------------------------------------------------------------------------------------------
-- Hosted projects: the address-hash key in Vault, and the digest job.
do $$
begin
  -- Vault's create_secret(secret, name, description[, key_id]) takes three arguments or four.
  if exists (select from pg_catalog.pg_proc p join pg_catalog.pg_namespace ns on ns.oid = p.pronamespace
              where ns.nspname = 'vault' and p.proname = 'create_secret')
     and pg_catalog.to_regclass('vault.decrypted_secrets') is not null then
    if not exists (select from vault.decrypted_secrets where name = 'request_screening_key') then
      perform vault.create_secret(
        (select s.secret from private.screening_secrets s where s.name = 'request_screening_key'),
        'request_screening_key',
        'Key of the client-address hash in public.contact_screening (20261124110000_request_screening.sql)');
    end if;
    -- Vault holds it now; no second copy in a table.
    delete from private.screening_secrets where name = 'request_screening_key';
  end if;

  if pg_catalog.to_regprocedure('cron.schedule(text,text,text)') is null then
    raise notice 'pg_cron is not here: no digest job (the local backend runs its own).';
    return;
  end if;
  perform cron.schedule('notify-meeting-request-digest', '*/5 * * * *', 'select public.send_contact_digest()');
end;
$$;
