-- The page proof's RPCs for anon, form_challenge() and confirm_form_proof(ticket, proof), and a
-- challenge's price per address (screening_settings), so one machine cannot turn its cores into
-- rows. Both RPCs are SECURITY INVOKER and insert into views of schema private that store
-- nothing; each view's INSTEAD OF trigger (SECURITY DEFINER) does the work that needs the secret
-- and hands its answer back through a transaction-local setting (RETURNING would need SELECT).

-- The challenges each address (keyed hash) was given in the window.
create table private.form_challenges_issued (
  id bigint generated always as identity primary key,
  client_key text not null,
  issued_at timestamptz not null default now()
);
create index form_challenges_issued_client_idx on private.form_challenges_issued (client_key, issued_at);
create index form_challenges_issued_at_idx on private.form_challenges_issued (issued_at);
alter table private.form_challenges_issued enable row level security;

create view private.form_challenge_desk with (security_invoker = true) as
  select null::jsonb as challenge where false;

create function private.form_challenge_issue()
  returns trigger
  language plpgsql volatile security definer
  set search_path = ''
as $$
declare
  settings private.screening_settings;
  client text := private.client_key(
    private.client_address(pg_catalog.current_setting('request.headers', true)));
  issued integer;
  maxnumber bigint;
  -- Usable for 30 minutes, longer than FORM_PROOF_REUSE_MS of src/lib/form-proof.ts.
  salt text := pg_catalog.replace(pg_catalog.gen_random_uuid()::text, '-', '')
    || '?expires=' || pg_catalog.floor(pg_catalog.date_part('epoch', pg_catalog.now() + interval '30 minutes'))::bigint::text
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

  -- The difficulty, given the `issued` challenges of the address's window.
  maxnumber := least(
    private.form_proof_maxnumber()::numeric,
    pg_catalog.round(settings.base_difficulty * pg_catalog.power(2::numeric,
      greatest(0, issued + 1 - settings.challenges_at_base_difficulty)::numeric / settings.challenges_per_doubling)))::bigint;
  -- 48 random bits: the first 12 hex digits of a version-4 UUID.
  secret_number := ('x' || pg_catalog.left(pg_catalog.replace(pg_catalog.gen_random_uuid()::text, '-', ''), 12))::bit(48)::bigint
    % (maxnumber + 1);
  challenge := pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to(salt || secret_number::text, 'UTF8')), 'hex');
  perform pg_catalog.set_config('form_proof.challenge', pg_catalog.jsonb_build_object(
    'algorithm', 'SHA-256',
    'challenge', challenge,
    'maxnumber', maxnumber,
    'salt', salt,
    'signature', private.form_proof_signature(challenge)
  )::text, true);
  new.challenge := pg_catalog.current_setting('form_proof.challenge')::jsonb;
  return new;
end;
$$;

create trigger form_challenge_issue
  instead of insert on private.form_challenge_desk
  for each row
  execute function private.form_challenge_issue();

create view private.form_proof_confirmations with (security_invoker = true) as
  select null::text as ticket, null::text as proof, null::boolean as confirmed where false;

create function private.form_proof_confirm()
  returns trigger
  language plpgsql volatile security definer
  set search_path = ''
as $$
declare
  confirmed boolean := false;
begin
  -- The ticket is checked before the proof is spent: a malformed call spends nothing.
  if coalesce(new.ticket, '') ~ '^[0-9a-f]{32}$' then
    if private.form_proof_spend(new.proof) = 'verified' then
      confirmed := coalesce(private.form_proof_confirmed(private.form_proof_ticket_hash('pending:' || new.ticket)), false);
    end if;
  end if;
  perform pg_catalog.set_config('form_proof.confirmed', confirmed::text, true);
  new.confirmed := confirmed;
  return new;
end;
$$;

create trigger form_proof_confirm
  instead of insert on private.form_proof_confirmations
  for each row
  execute function private.form_proof_confirm();

create function public.form_challenge()
  returns jsonb
  language sql volatile security invoker
  set search_path = ''
as $$
  insert into private.form_challenge_desk default values;
  select pg_catalog.current_setting('form_proof.challenge', true)::jsonb;
$$;

create function public.confirm_form_proof(ticket text, proof text)
  returns boolean
  language sql volatile security invoker
  set search_path = ''
as $$
  insert into private.form_proof_confirmations (ticket, proof) values (ticket, proof);
  select coalesce(pg_catalog.current_setting('form_proof.confirmed', true), 'false')::boolean;
$$;

grant execute on function public.form_challenge() to anon;
grant execute on function public.confirm_form_proof(text, text) to anon;

grant insert on table private.form_challenge_desk to anon;
grant insert on table private.form_proof_confirmations to anon;
