-- Meeting requests sent from the public site's form.
--
-- The browser inserts with the public anon key, so everything a visitor could abuse is
-- enforced here, in the database, and not only in the form:
--   * the anon role may INSERT the four form columns and nothing else (no SELECT, UPDATE,
--     DELETE, no writing id or created_at); row-level security is on;
--   * every column is sized by CHECK constraints that use the same numbers as
--     src/lib/field-limits.ts (CONTACT_COLUMN_LIMITS; a test probes each boundary);
--   * one request inserts at most one row, and one e-mail address may send at most five
--     requests per rolling hour (see the second half of this file).
-- Staff read the table with the service role (Supabase dashboard or the service key).
--
-- SQLSTATEs raised on purpose (PostgREST turns 'PTxyz' into HTTP status xyz):
--   PT400  more than one row in one request          -> HTTP 400
--   PT429  more than 5 requests per e-mail per hour  -> HTTP 429
-- The constraints themselves raise 23514 (check_violation) and 23502 (not_null_violation),
-- which PostgREST answers with HTTP 400.
--
-- Works with `supabase db push` on a hosted project and on plain PostgreSQL 15+ where the
-- roles anon, authenticated and service_role already exist (this file creates no roles).

create table public.contacts (
  id bigint generated always as identity primary key,
  created_at timestamptz not null default now(),
  name text not null,
  email text not null,
  organization text not null,
  message text not null,

  -- Lengths count characters (code points), as char_length does. The form's maxLength counts
  -- UTF-16 units, which is never fewer, so anything the form lets through fits here.
  constraint contacts_name_length check (char_length(name) between 1 and 200),
  constraint contacts_organization_length check (char_length(organization) between 1 and 200),
  constraint contacts_email_length check (char_length(email) <= 254),
  constraint contacts_message_length check (char_length(message) between 1 and 6000),

  -- Not blank: something other than whitespace. The set is JavaScript's String.trim()
  -- whitespace, spelled out so the result does not depend on the database's locale.
  constraint contacts_name_not_blank check (
    name !~ '^[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]*$'
  ),
  constraint contacts_organization_not_blank check (
    organization !~ '^[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]*$'
  ),

  -- A plausible address: something@something.something, no whitespace and a single @.
  -- (Deliverability is not checked here; no whitespace also means nothing to trim.)
  constraint contacts_email_shape check (email ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$')
);

comment on table public.contacts is
  'Meeting requests from the public site. Visitors (anon) may only insert; staff read with the service role.';

-- The rate limit below looks rows up by address and time.
create index contacts_email_created_at_idx on public.contacts (lower(email), created_at);

-- Privileges. Supabase grants everything on new tables to anon, authenticated and
-- service_role by default; take that back and grant only what is needed.
revoke all on table public.contacts from anon, authenticated;
revoke all on sequence public.contacts_id_seq from anon, authenticated;
grant insert (name, email, organization, message) on table public.contacts to anon;
grant all on table public.contacts to service_role;
grant usage, select on sequence public.contacts_id_seq to service_role;

-- Row-level security. Not FORCEd: the rate-limit function below runs as the table owner
-- and must see the rows (a forced RLS would hide them from the owner as well).
alter table public.contacts enable row level security;

create policy "Visitors can send a meeting request"
  on public.contacts for insert to anon
  with check (true);

-- service_role bypasses RLS on Supabase; this policy makes it work the same on a plain
-- PostgreSQL where service_role was created without BYPASSRLS.
create policy "Service role manages meeting requests"
  on public.contacts for all to service_role
  using (true) with check (true);


-- One request, one row. PostgREST runs each HTTP request as a single INSERT statement, so a
-- statement-level trigger sees everything that request inserts in its transition table.
create function public.contacts_one_row_per_request()
  returns trigger
  language plpgsql
  set search_path = ''
as $$
begin
  if (select count(*) from inserted) > 1 then
    raise exception using
      errcode = 'PT400',
      message = 'Only one meeting request can be submitted at a time',
      hint = 'Send each meeting request in its own request.';
  end if;
  return null;
end;
$$;

-- At most 5 requests per e-mail address (case-insensitive) per rolling hour. anon cannot
-- SELECT the table, so this runs as its owner (SECURITY DEFINER, empty search_path). An
-- advisory lock per address makes concurrent requests for one address count one another.
create function public.contacts_rate_limit()
  returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  address text;
  recent bigint;
begin
  for address in select distinct lower(i.email) from inserted i loop
    perform pg_catalog.pg_advisory_xact_lock(
      pg_catalog.hashtextextended('public.contacts rate limit ' || address, 0)
    );
    select count(*) into recent
      from public.contacts c
      where lower(c.email) = address
        and c.created_at > pg_catalog.now() - interval '1 hour';
    if recent > 5 then
      raise exception using
        errcode = 'PT429',
        message = 'Too many meeting requests from this e-mail address',
        detail = 'At most 5 meeting requests per e-mail address are accepted per hour.',
        hint = 'Try again later.';
    end if;
  end loop;
  return null;
end;
$$;

-- Neither function is meant to be called directly (and trigger functions cannot be).
revoke all on function public.contacts_one_row_per_request() from public, anon, authenticated;
revoke all on function public.contacts_rate_limit() from public, anon, authenticated;

-- Only requests from the public API roles are limited; staff (service_role, the owner)
-- can still import or fix rows in bulk. Triggers on one event fire in name order, so the
-- one-row check is reported before the rate limit.
create trigger contacts_10_one_row_per_request
  after insert on public.contacts
  referencing new table as inserted
  for each statement
  when (current_user in ('anon', 'authenticated'))
  execute function public.contacts_one_row_per_request();

create trigger contacts_20_rate_limit
  after insert on public.contacts
  referencing new table as inserted
  for each statement
  when (current_user in ('anon', 'authenticated'))
  execute function public.contacts_rate_limit();
