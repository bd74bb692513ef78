-- The page proof (docs/database.md, "The page proof"): an ALTCHA v1 challenge (proof of work)
-- signed with the secret form_proof_secret. This file checks and spends proofs; the RPCs that
-- issue and confirm them are in 20261128000003_form_proof_desks.sql. HMAC-SHA-256 is built from
-- PostgreSQL's own sha256: PGlite loads no pgcrypto.

-- The largest number any challenge may hide (the verifier's bound): the difficulty's ceiling.
create function private.form_proof_maxnumber()
  returns integer
  language sql immutable parallel safe
  set search_path = ''
as $$ select 2147483647 $$;

-- RFC 2104, with a 64-byte block.
create function private.hmac_sha256(key bytea, message bytea)
  returns bytea
  language sql immutable strict parallel safe
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

-- The proof's signature: the HMAC of its challenge with form_proof_secret, as hex.
create function private.form_proof_signature(challenge text)
  returns text
  language sql stable
  set search_path = ''
as $$
  select pg_catalog.encode(private.hmac_sha256(
    pg_catalog.convert_to(private.secret('form_proof_secret'), 'UTF8'),
    pg_catalog.convert_to(challenge, 'UTF8')), 'hex')
$$;

-- Spent proofs (a proof counts once), kept until their challenge expires.
create table private.form_proofs_spent (
  challenge text primary key,
  expires_at timestamptz not null
);
create index form_proofs_spent_expires_at on private.form_proofs_spent (expires_at);

-- Checks an ALTCHA v1 payload (base64 of JSON) and spends it: 'verified', or 'invalid'. The
-- spend belongs to the caller's transaction: a refused insert leaves its proof unspent.
create function private.form_proof_spend(payload text)
  returns text
  language plpgsql volatile security definer
  set search_path = ''
as $$
declare
  proof jsonb;
  salt text;
  number_text text;
  challenge text;
  signature text;
  expires_at timestamptz;
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
  -- Exactly the salt form_challenge issues, so the expiry cannot move into the number's digits.
  if salt !~ '^[0-9a-f]{32}\?expires=[0-9]{10}&$'
     or number_text !~ '^(0|[1-9][0-9]{0,9})$'
     or challenge !~ '^[0-9a-f]{64}$'
     or signature !~ '^[0-9a-f]{64}$' then
    return 'invalid';
  end if;
  expires_at := pg_catalog.to_timestamp(pg_catalog.substr(salt, 42, 10)::bigint);
  if number_text::bigint > private.form_proof_maxnumber() or expires_at <= pg_catalog.now() then
    return 'invalid';
  end if;
  if challenge <> pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to(salt || number_text, 'UTF8')), 'hex')
     or signature <> private.form_proof_signature(challenge) then
    return 'invalid';
  end if;
  insert into private.form_proofs_spent (challenge, expires_at)
    values (challenge, expires_at)
    on conflict do nothing;
  if not found then
    return 'invalid';
  end if;
  delete from private.form_proofs_spent s where s.expires_at < pg_catalog.now();
  return 'verified';
end;
$$;

-- The header's verdict; 'pending:<ticket>' carries 32 lowercase hex characters the page drew.
create function private.form_proof_verdict(header text)
  returns text
  language sql volatile security definer
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
  language sql immutable
  set search_path = ''
as $$
  select case when header ~ '^pending:[0-9a-f]{32}$'
    then pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to(pg_catalog.substr(header, 9), 'UTF8')), 'hex')
  end
$$;

