-- Every number of the screening is a setting (issue 27; docs/notifications.md, "Budgets and
-- settings"), and the page proof costs more for an address that asks for many.
--
--   private.screening_settings        one row: every budget, window and interval, in one place.
--                                     Change one with SQL as the owner, e.g.
--                                       update private.screening_settings set one_by_one_per_address = 30;
--                                     (`npm run backend` sets them from SCREENING_<COLUMN> variables).
--   private.form_challenges_issued    which address (keyed hash) was given a challenge, and when,
--                                     for the window only.
--   private.form_challenge_issue()    replaced: the challenge's difficulty (maxnumber) doubles every
--                                     challenges_per_doubling challenges an address was given in the
--                                     window beyond challenges_at_base_difficulty; past
--                                     challenges_per_address it is refused (429, PT429), so one
--                                     machine cannot turn its cores into rows.
--
-- The page never waits for a challenge: a refused or slow one makes it send `pending:<ticket>`
-- at the tap (src/lib/form-proof.ts), the request is stored, and the page confirms it later.

create table private.screening_settings (
  only_row boolean primary key default true check (only_row),
  -- The rolling window of every per-window budget below ("the hour").
  window_seconds integer not null default 3600 check (window_seconds > 0),
  -- Rows without a page proof (none, invalid, or a pending ticket not yet confirmed) per window:
  -- past either, the insert is refused with 429 (PT429).
  unproved_per_address integer not null default 20 check (unproved_per_address >= 0),
  unproved_in_all integer not null default 200 check (unproved_in_all >= 0),
  -- Page-proved requests e-mailed one by one: per address per window; per address at a pace of
  -- one every one_by_one_refill_seconds, with up to one_by_one_per_address_burst at once (a token
  -- bucket); and from all addresses together per window. Past a budget a request is stored and
  -- listed individually in the next digest.
  one_by_one_per_address integer not null default 20 check (one_by_one_per_address >= 0),
  one_by_one_per_address_burst integer not null default 4 check (one_by_one_per_address_burst >= 0),
  one_by_one_refill_seconds integer not null default 15 check (one_by_one_refill_seconds > 0),
  one_by_one_in_all integer not null default 35 check (one_by_one_in_all >= 0),
  -- The page proof's price per address: base_difficulty (maxnumber: the page tries half of it on
  -- average) for the first challenges_at_base_difficulty challenges of the window, then twice as
  -- much every challenges_per_doubling challenges; none past challenges_per_address.
  base_difficulty integer not null default 50000 check (base_difficulty > 0),
  challenges_at_base_difficulty integer not null default 20 check (challenges_at_base_difficulty >= 0),
  challenges_per_doubling integer not null default 10 check (challenges_per_doubling > 0),
  challenges_per_address integer not null default 120 check (challenges_per_address >= 0),
  -- How long a request sent with a pending ticket waits for the page's confirmation before it
  -- joins the digest.
  hold_for_proof_seconds integer not null default 120 check (hold_for_proof_seconds >= 0),
  -- At most one digest per digest_interval_seconds (pg_cron looks every minute), listing at most
  -- digest_list_limit requests one by one (the rest: meeting_requests_overview).
  digest_interval_seconds integer not null default 900 check (digest_interval_seconds >= 0),
  digest_list_limit integer not null default 300 check (digest_list_limit > 0)
);

comment on table private.screening_settings is
  'Every budget, window and interval of the request screening (docs/notifications.md, "Budgets and settings"). One row; change it with SQL as the owner.';

-- The caps a project may have changed since 20261124110000 carry over.
insert into private.screening_settings (unproved_per_address, unproved_in_all)
  select l.per_client_per_hour, l.overall_per_hour from private.screening_limits l;
insert into private.screening_settings default values on conflict do nothing;
drop table private.screening_limits;

revoke all on table private.screening_settings from public, anon, authenticated, service_role;
-- The Edge Function's digest claim reads the digest's settings as the service role.
grant select on table private.screening_settings to service_role;
alter table private.screening_settings enable row level security;
create policy "Service role reads the settings"
  on private.screening_settings for select to service_role
  using (true);


-- The wait for a pending ticket's confirmation, from the settings (was a constant).
create or replace function private.hold_for_proof()
  returns interval
  language sql
  stable
  set search_path = ''
as $$ select pg_catalog.make_interval(secs => s.hold_for_proof_seconds) from private.screening_settings s $$;


-- A window in words for the refusals: 'hour', '10 minutes', '90 seconds'.
create function private.duration_words(seconds integer)
  returns text
  language sql
  immutable
  set search_path = ''
as $$
  select case
    when seconds = 3600 then 'hour'
    when seconds = 60 then 'minute'
    when seconds % 3600 = 0 then (seconds / 3600)::text || ' hours'
    when seconds % 60 = 0 then (seconds / 60)::text || ' minutes'
    else seconds::text || ' seconds'
  end
$$;

revoke all on function private.duration_words(integer) from public, anon, authenticated;


-- The address of the request being served, as its keyed hash (20261124110000).
create function private.request_client_key()
  returns text
  language sql
  stable
  set search_path = ''
as $$
  select private.client_key(private.client_address(pg_catalog.current_setting('request.headers', true)))
$$;

revoke all on function private.request_client_key() from public, anon, authenticated;


-- ---------------------------------------------------------------------------------------------
-- The challenges each address was given, for the window.
create table private.form_challenges_issued (
  id bigint generated always as identity primary key,
  client_key text not null,
  issued_at timestamptz not null default now()
);
create index form_challenges_issued_client_idx on private.form_challenges_issued (client_key, issued_at);
create index form_challenges_issued_at_idx on private.form_challenges_issued (issued_at);
revoke all on table private.form_challenges_issued from public, anon, authenticated, service_role;
alter table private.form_challenges_issued enable row level security;

-- The difficulty of an address's next challenge when it was given `issued` in the window.
create function private.form_challenge_maxnumber(issued integer)
  returns bigint
  language sql
  stable
  set search_path = ''
as $$
  select least(
           private.form_proof_maxnumber()::numeric,
           pg_catalog.round(s.base_difficulty * pg_catalog.power(2::numeric,
             greatest(0, issued + 1 - s.challenges_at_base_difficulty)::numeric / s.challenges_per_doubling)))::bigint
    from private.screening_settings s
$$;

-- The largest number any challenge may hide (the verifier's bound, private.form_proof_spend):
-- the difficulty's ceiling, whatever the settings say.
create or replace function private.form_proof_maxnumber()
  returns integer
  language sql
  immutable
  parallel safe
  set search_path = ''
as $$ select 2147483647 $$;

create or replace function private.form_challenge_issue()
  returns trigger
  language plpgsql
  volatile
  security definer
  set search_path = ''
as $$
declare
  settings private.screening_settings;
  client text := private.request_client_key();
  issued integer;
  maxnumber bigint;
  salt text := pg_catalog.replace(pg_catalog.gen_random_uuid()::text, '-', '')
    || '?expires=' || pg_catalog.floor(pg_catalog.date_part('epoch', pg_catalog.now() + private.form_proof_lifetime()))::bigint::text
    || '&';
  secret_number bigint;
  challenge text;
begin
  select * into settings from private.screening_settings;
  -- One at a time per address, so concurrent requests count one another.
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended('private.form_challenges_issued ' || client, 0));
  delete from private.form_challenges_issued i
   where i.issued_at <= pg_catalog.now() - pg_catalog.make_interval(secs => settings.window_seconds);
  select pg_catalog.count(*) into issued from private.form_challenges_issued i where i.client_key = client;
  if issued >= settings.challenges_per_address then
    raise exception using
      errcode = 'PT429',
      message = 'Too many page-proof challenges for this network address',
      detail = pg_catalog.format('At most %s challenges are given to one network address per %s.',
                                 settings.challenges_per_address, private.duration_words(settings.window_seconds)),
      hint = 'The form still sends the request without one; try again later.';
  end if;
  insert into private.form_challenges_issued (client_key) values (client);

  maxnumber := private.form_challenge_maxnumber(issued);
  -- 48 random bits of a version-4 UUID (its first 12 hex digits), from the server's strong random source.
  secret_number := ('x' || pg_catalog.left(pg_catalog.replace(pg_catalog.gen_random_uuid()::text, '-', ''), 12))::bit(48)::bigint
    % (maxnumber + 1);
  challenge := pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to(salt || secret_number::text, 'UTF8')), 'hex');
  -- Handed to public.form_challenge() through the transaction, not RETURNING: anon may insert into
  -- the desk but not read it (20261126130000_nothing_private_for_anon.sql).
  perform pg_catalog.set_config('form_proof.challenge', pg_catalog.jsonb_build_object(
    'algorithm', 'SHA-256',
    'challenge', challenge,
    'maxnumber', maxnumber,
    'salt', salt,
    'signature', pg_catalog.encode(private.hmac_sha256(private.form_proof_secret(), pg_catalog.convert_to(challenge, 'UTF8')), 'hex')
  )::text, true);
  new.challenge := pg_catalog.current_setting('form_proof.challenge')::jsonb;
  return new;
end;
$$;

revoke all on function private.form_challenge_maxnumber(integer) from public, anon, authenticated;
revoke all on function private.form_challenge_issue() from public, anon, authenticated;
