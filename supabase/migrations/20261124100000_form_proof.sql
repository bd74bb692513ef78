-- Page proof (issue 19, docs/database.md "The page proof"): a self-verifiable challenge in the
-- format of ALTCHA v1 (proof of work), issued and checked here, with an HMAC secret kept in
-- Supabase Vault. No third party, no cookie, nothing stored when a challenge is issued.
--
--   public.form_challenge()                  RPC for anon: a fresh signed challenge
--   private.form_proof_verdict(header)       'verified' | 'pending' | 'invalid' | 'missing' for
--                                            the x-form-proof header of an insert (spends a proof)
--   private.form_proof_ticket_hash(header)   sha256 of the ticket of a 'pending:<ticket>' header
--   public.confirm_form_proof(ticket, proof) RPC for anon: a proof solved after the insert confirms
--                                            the pending request (private.form_proof_confirmed,
--                                            defined by the screening migration)
--
-- Hashing: PostgreSQL's built-in sha256(bytea) (PostgreSQL 11+), and HMAC-SHA-256 (RFC 2104)
-- built from it. pgcrypto's hmac() would do, but the local backend's PGlite loads no extension,
-- and the built-in works the same on both; local-backend/form-proof-migration.test.ts checks
-- the HMAC against Node's crypto and the whole challenge against altcha-lib's own verifier.
--
-- Privileges: anon may execute the two public RPCs and nothing else here. Both are SECURITY
-- INVOKER; the work that needs the secret runs in SECURITY DEFINER trigger functions on two
-- views in schema private (which the API does not expose), that anon may insert into. A trigger
-- function needs no EXECUTE grant to fire (like contacts_post_webhook), so no SECURITY DEFINER
-- function is executable by anon (advisor lint 0028), and each trigger does one narrow job:
-- sign a fresh challenge, or check-and-spend one proof. Nothing is ever stored in the views.

create schema if not exists private;

-- Difficulty: the secret number is drawn from [0, maxnumber]; the page tries 0, 1, 2, ... so it
-- needs maxnumber / 2 SHA-256 hashes on average. Chosen from `npm run bench:proof`
-- (docs/performance.md "Page proof").
create function private.form_proof_maxnumber()
  returns integer
  language sql
  immutable
  parallel safe
  set search_path = ''
as $$ select 50000 $$;

-- How long a challenge may be used. The page refreshes an unused one well before (it reuses a
-- solved proof for at most FORM_PROOF_REUSE_MS, src/lib/form-proof.ts; a test keeps the two apart).
create function private.form_proof_lifetime()
  returns interval
  language sql
  immutable
  parallel safe
  set search_path = ''
as $$ select interval '30 minutes' $$;


-- ---------------------------------------------------------------------------------------------
-- HMAC-SHA-256 from the built-in sha256 (RFC 2104): the key, hashed when longer than the 64-byte
-- block, zero-padded to it and XORed with 0x36 (inner) and 0x5c (outer), byte by byte.
create function private.hmac_sha256(key bytea, message bytea)
  returns bytea
  language sql
  immutable
  strict
  parallel safe
  set search_path = ''
as $$
  with block_key as (
    select case when pg_catalog.length(key) > 64 then pg_catalog.sha256(key) else key end as k
  ), key_bytes as (
    select i, case when i < pg_catalog.length(k) then pg_catalog.get_byte(k, i) else 0 end as b
      from block_key, pg_catalog.generate_series(0, 63) as i
  ), pads as (
    select pg_catalog.decode(pg_catalog.string_agg(pg_catalog.lpad(pg_catalog.to_hex(b # 54), 2, '0'), '' order by i), 'hex') as inner_pad,
           pg_catalog.decode(pg_catalog.string_agg(pg_catalog.lpad(pg_catalog.to_hex(b # 92), 2, '0'), '' order by i), 'hex') as outer_pad
      from key_bytes
  )
  select pg_catalog.sha256(outer_pad || pg_catalog.sha256(inner_pad || message)) from pads
$$;


-- ---------------------------------------------------------------------------------------------
-- The secret. Hosted: the Vault secret `form_proof_secret`, created here with 256 random bits
-- when it does not exist yet (rotate: docs/database.md). Where there is no Vault (PGlite, plain
-- PostgreSQL): one row in private.form_proof_key, which no API role may read.
do $$
declare
  fresh text := pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to(
    pg_catalog.gen_random_uuid()::text || pg_catalog.gen_random_uuid()::text || pg_catalog.gen_random_uuid()::text, 'UTF8')), 'hex');
begin
  if pg_catalog.to_regclass('vault.decrypted_secrets') is not null then
    if not exists (select from vault.decrypted_secrets where name = 'form_proof_secret') then
      perform vault.create_secret(fresh, 'form_proof_secret',
        'HMAC key of the meeting form''s page proof (supabase/migrations/20261124100000_form_proof.sql)');
    end if;
  else
    create table private.form_proof_key (
      only_row boolean primary key default true check (only_row),
      secret text not null check (pg_catalog.length(secret) >= 32)
    );
    revoke all on table private.form_proof_key from public, anon, authenticated;
    insert into private.form_proof_key (secret) values (fresh);
  end if;
end;
$$;

create function private.form_proof_secret()
  returns bytea
  language plpgsql
  stable
  set search_path = ''
as $$
declare
  secret text;
begin
  if pg_catalog.to_regclass('vault.decrypted_secrets') is not null then
    select s.decrypted_secret into secret from vault.decrypted_secrets s where s.name = 'form_proof_secret';
  else
    select k.secret into secret from private.form_proof_key k;
  end if;
  if secret is null or secret = '' then
    raise exception 'form proof: the secret form_proof_secret is missing'
      using hint = 'Create it in Vault (docs/database.md, "The page proof").';
  end if;
  return pg_catalog.convert_to(secret, 'UTF8');
end;
$$;


-- ---------------------------------------------------------------------------------------------
-- Spent proofs: a proof counts once. Kept only until its challenge expires (after that it is
-- refused as expired anyway); each spend prunes what has expired.
create table private.form_proofs_spent (
  challenge text primary key,
  expires_at timestamptz not null
);
create index form_proofs_spent_expires_at on private.form_proofs_spent (expires_at);
revoke all on table private.form_proofs_spent from public, anon, authenticated;

-- Checks an ALTCHA v1 payload (base64 of {"algorithm","challenge","number","salt","signature"})
-- and spends it: 'verified', or 'invalid' (malformed, expired, unsolved, forged or spent).
-- Cheap: one sha256 and one HMAC, no loop over numbers. The spend belongs to the caller's
-- transaction: a refused insert leaves its proof unspent.
create function private.form_proof_spend(payload text)
  returns text
  language plpgsql
  volatile
  security definer
  set search_path = ''
as $$
declare
  proof jsonb;
  salt text;
  number_text text;
  challenge text;
  signature text;
  expires_at timestamptz;
  spent integer;
begin
  if payload is null or pg_catalog.length(payload) > 1000 then
    return 'invalid';
  end if;
  begin
    proof := pg_catalog.convert_from(pg_catalog.decode(payload, 'base64'), 'UTF8')::jsonb;
  exception when others then
    return 'invalid';
  end;
  if pg_catalog.jsonb_typeof(proof) is distinct from 'object'
     or proof ->> 'algorithm' is distinct from 'SHA-256'
     or pg_catalog.jsonb_typeof(proof -> 'number') is distinct from 'number' then
    return 'invalid';
  end if;
  salt := coalesce(proof ->> 'salt', '');
  number_text := coalesce(proof ->> 'number', '');
  challenge := coalesce(proof ->> 'challenge', '');
  signature := coalesce(proof ->> 'signature', '');
  -- Exactly the salt form_challenge issues: the expiry cannot be moved into the number's
  -- digits ("parameter splicing") since its length is fixed and the salt ends with '&'.
  if salt !~ '^[0-9a-f]{32}\?expires=[0-9]{10}&$'
     or number_text !~ '^(0|[1-9][0-9]{0,9})$'
     or challenge !~ '^[0-9a-f]{64}$'
     or signature !~ '^[0-9a-f]{64}$' then
    return 'invalid';
  end if;
  if number_text::bigint > private.form_proof_maxnumber() then
    return 'invalid';
  end if;
  expires_at := pg_catalog.to_timestamp(pg_catalog.substr(salt, 42, 10)::bigint);
  if expires_at <= pg_catalog.now() then
    return 'invalid';
  end if;
  if challenge <> pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to(salt || number_text, 'UTF8')), 'hex')
     or signature <> pg_catalog.encode(
          private.hmac_sha256(private.form_proof_secret(), pg_catalog.convert_to(challenge, 'UTF8')), 'hex') then
    return 'invalid';
  end if;
  insert into private.form_proofs_spent (challenge, expires_at)
    values (challenge, expires_at)
    on conflict do nothing;
  get diagnostics spent = row_count;
  if spent = 0 then
    return 'invalid';
  end if;
  delete from private.form_proofs_spent s where s.expires_at < pg_catalog.now();
  return 'verified';
end;
$$;

-- The header's verdict. 'pending:<ticket>': 32 lowercase hex characters the page drew at the tap.
create function private.form_proof_verdict(header text)
  returns text
  language sql
  volatile
  security definer
  set search_path = ''
as $$
  select case
    when header is null or header = '' then 'missing'
    when header ~ '^pending:[0-9a-f]{32}$' then 'pending'
    when header like 'pending:%' then 'invalid'
    else private.form_proof_spend(header)
  end
$$;

-- Tickets are stored only as this hash: a ticket is the page's secret until it confirms.
create function private.form_proof_ticket_hash(header text)
  returns text
  language sql
  immutable
  set search_path = ''
as $$
  select case when header ~ '^pending:[0-9a-f]{32}$'
    then pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to(pg_catalog.substr(header, 9), 'UTF8')), 'hex')
  end
$$;


-- ---------------------------------------------------------------------------------------------
-- The two desks anon reaches through the RPCs: inserting into these views runs the INSTEAD OF
-- trigger, which fills in the answer that INSERT ... RETURNING hands back. Nothing is stored.
create view private.form_challenge_desk with (security_invoker = true) as
  select null::jsonb as challenge where false;

create function private.form_challenge_issue()
  returns trigger
  language plpgsql
  volatile
  security definer
  set search_path = ''
as $$
declare
  salt text := pg_catalog.replace(pg_catalog.gen_random_uuid()::text, '-', '')
    || '?expires=' || pg_catalog.floor(pg_catalog.date_part('epoch', pg_catalog.now() + private.form_proof_lifetime()))::bigint::text
    || '&';
  -- 48 random bits of a version-4 UUID (its first 12 hex digits), from the server's strong random source.
  secret_number bigint := ('x' || pg_catalog.left(pg_catalog.replace(pg_catalog.gen_random_uuid()::text, '-', ''), 12))::bit(48)::bigint
    % (private.form_proof_maxnumber() + 1);
  challenge text := pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to(salt || secret_number::text, 'UTF8')), 'hex');
begin
  new.challenge := pg_catalog.jsonb_build_object(
    'algorithm', 'SHA-256',
    'challenge', challenge,
    'maxnumber', private.form_proof_maxnumber(),
    'salt', salt,
    'signature', pg_catalog.encode(private.hmac_sha256(private.form_proof_secret(), pg_catalog.convert_to(challenge, 'UTF8')), 'hex')
  );
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
  language plpgsql
  volatile
  security definer
  set search_path = ''
as $$
begin
  new.confirmed := false;
  if coalesce(new.ticket, '') !~ '^[0-9a-f]{32}$' then
    return new;
  end if;
  if private.form_proof_spend(new.proof) <> 'verified' then
    return new;
  end if;
  -- Defined by the screening migration (20261124110000_request_screening.sql).
  new.confirmed := coalesce(private.form_proof_confirmed(private.form_proof_ticket_hash('pending:' || new.ticket)), false);
  return new;
end;
$$;

create trigger form_proof_confirm
  instead of insert on private.form_proof_confirmations
  for each row
  execute function private.form_proof_confirm();


-- ---------------------------------------------------------------------------------------------
-- The RPCs (POST /rest/v1/rpc/form_challenge, POST /rest/v1/rpc/confirm_form_proof).
create function public.form_challenge()
  returns jsonb
  language sql
  volatile
  security invoker
  set search_path = ''
as $$
  insert into private.form_challenge_desk default values returning challenge
$$;

create function public.confirm_form_proof(ticket text, proof text)
  returns boolean
  language sql
  volatile
  security invoker
  set search_path = ''
as $$
  insert into private.form_proof_confirmations (ticket, proof) values (ticket, proof) returning confirmed
$$;

revoke all on function private.form_proof_maxnumber() from public, anon, authenticated;
revoke all on function private.form_proof_lifetime() from public, anon, authenticated;
revoke all on function private.hmac_sha256(bytea, bytea) from public, anon, authenticated;
revoke all on function private.form_proof_secret() from public, anon, authenticated;
revoke all on function private.form_proof_spend(text) from public, anon, authenticated;
revoke all on function private.form_proof_verdict(text) from public, anon, authenticated;
revoke all on function private.form_proof_ticket_hash(text) from public, anon, authenticated;
revoke all on function private.form_challenge_issue() from public, anon, authenticated;
revoke all on function private.form_proof_confirm() from public, anon, authenticated;
revoke all on function public.form_challenge() from public, anon, authenticated;
revoke all on function public.confirm_form_proof(text, text) from public, anon, authenticated;
grant execute on function public.form_challenge() to anon;
grant execute on function public.confirm_form_proof(text, text) to anon;

revoke all on table private.form_challenge_desk from public, anon, authenticated;
revoke all on table private.form_proof_confirmations from public, anon, authenticated;
grant insert, select on table private.form_challenge_desk to anon;
grant insert, select on table private.form_proof_confirmations to anon;
