-- The numbers of the request screening (docs/notifications.md, "Budgets and settings"), one row
-- to change with SQL as the owner; the secrets; and who is asking: a client address kept only as
-- a keyed hash.

create table private.screening_settings (
  only_row boolean primary key default true check (only_row),
  -- The rolling window of every per-window budget below ("the hour").
  window_seconds integer not null default 3600 check (window_seconds > 0),
  -- Rows without a page proof (none, invalid, or pending) per window; past either, PT429.
  unproved_per_address integer not null default 20 check (unproved_per_address >= 0),
  unproved_in_all integer not null default 200 check (unproved_in_all >= 0),
  -- Page-proved requests e-mailed one by one: per address per window, per address at a pace (a
  -- token bucket), and in all per window. Past a budget a request goes to the next digest.
  one_by_one_per_address integer not null default 20 check (one_by_one_per_address >= 0),
  one_by_one_per_address_burst integer not null default 4 check (one_by_one_per_address_burst >= 0),
  one_by_one_refill_seconds integer not null default 15 check (one_by_one_refill_seconds > 0),
  one_by_one_in_all integer not null default 35 check (one_by_one_in_all >= 0),
  -- The page proof's price per address: base_difficulty (maxnumber) for the first challenges of
  -- the window, then twice as much every challenges_per_doubling; none past challenges_per_address.
  base_difficulty integer not null default 50000 check (base_difficulty > 0),
  challenges_at_base_difficulty integer not null default 20 check (challenges_at_base_difficulty >= 0),
  challenges_per_doubling integer not null default 10 check (challenges_per_doubling > 0),
  challenges_per_address integer not null default 120 check (challenges_per_address >= 0),
  -- How long a pending request waits for the page's confirmation before it joins the digest.
  hold_for_proof_seconds integer not null default 120 check (hold_for_proof_seconds >= 0),
  -- At most one digest per interval, listing at most digest_list_limit requests one by one.
  digest_interval_seconds integer not null default 900 check (digest_interval_seconds >= 0),
  digest_list_limit integer not null default 300 check (digest_list_limit > 0)
);

comment on table private.screening_settings is
  'Every budget, window and interval of the request screening (docs/notifications.md, "Budgets and settings"). One row; change it with SQL as the owner.';

insert into private.screening_settings default values;

-- The digest claim reads them as the service role.
grant select on table private.screening_settings to service_role;
alter table private.screening_settings enable row level security;

-- A window in words for the refusals: 'hour', '10 minutes', '90 seconds'.
create function private.duration_words(seconds integer)
  returns text
  language sql immutable
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

-- The secrets: form_proof_secret (the page proof's HMAC key) and request_screening_key (the key
-- of the client-address hash), 256 random bits each. In Vault where it exists (one made before is
-- kept), else in private.secrets, which no API role can read.
create table private.secrets (
  name text primary key,
  secret text not null
);
alter table private.secrets enable row level security;

do $$
declare
  secret_name text;
  fresh text;
begin
  foreach secret_name in array array['form_proof_secret', 'request_screening_key'] loop
    fresh := pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to(
      gen_random_uuid()::text || gen_random_uuid()::text || gen_random_uuid()::text, 'UTF8')), 'hex');
    if pg_catalog.to_regclass('vault.decrypted_secrets') is null then
      insert into private.secrets (name, secret) values (secret_name, fresh);
    elsif not exists (select from vault.decrypted_secrets s where s.name = secret_name) then
      perform vault.create_secret(fresh, secret_name, 'Made by supabase/migrations (docs/database.md)');
    end if;
  end loop;
end;
$$;

create function private.secret(secret_name text)
  returns text
  language plpgsql stable
  set search_path = ''
as $$
declare
  secret text;
begin
  if pg_catalog.to_regclass('vault.decrypted_secrets') is not null then
    select s.decrypted_secret into secret from vault.decrypted_secrets s where s.name = secret_name;
  else
    select s.secret into secret from private.secrets s where s.name = secret_name;
  end if;
  if secret is null or secret = '' then
    raise exception 'the secret % is missing', secret_name
      using hint = 'Create it in Vault (docs/database.md).';
  end if;
  return secret;
end;
$$;

-- The client as hosted Supabase's gateway names it: Cloudflare sets CF-Connecting-IP, replacing
-- any value a client sent (X-Forwarded-For is the client's to write). IPv6 as its /64; no
-- header or an unreadable one is the one client 'unknown'.
create function private.client_address(headers text)
  returns text
  language plpgsql immutable
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
  language sql stable
  set search_path = ''
as $$
  select pg_catalog.left(pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to(
    private.secret('request_screening_key') || ':' || address, 'UTF8')), 'hex'), 32);
$$;

