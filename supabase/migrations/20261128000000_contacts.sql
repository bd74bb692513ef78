-- Meeting requests from the site's form (docs/database.md), and who may reach them. The browser
-- inserts with the public anon key, so everything a visitor could abuse is enforced here. Staff
-- use the service role. PostgREST answers the errors 'PTxyz' with HTTP status xyz.

-- Nothing is the API roles' unless granted: Supabase grants everything new in public to them,
-- and PostgreSQL lets PUBLIC execute every new function.
alter default privileges revoke execute on functions from public;
alter default privileges in schema public revoke all on tables from anon, authenticated;
alter default privileges in schema public revoke all on sequences from anon, authenticated;
alter default privileges in schema public revoke all on functions from anon, authenticated;

-- Objects the API does not expose. anon needs USAGE for the visitors' policy and the desks.
create schema private;
grant usage on schema private to anon, service_role;

create table public.contacts (
  id bigint generated always as identity primary key,
  created_at timestamptz not null default now(),
  name text not null,
  email text not null,
  organization text not null,
  message text not null,

  -- The numbers of src/lib/field-limits.ts, in code points (never more than the form's UTF-16 units).
  constraint contacts_name_length check (char_length(name) between 1 and 200),
  constraint contacts_organization_length check (char_length(organization) between 1 and 200),
  constraint contacts_email_length check (char_length(email) <= 254),
  constraint contacts_message_length check (char_length(message) between 1 and 6000),

  -- Not blank: JavaScript's String.trim() whitespace, spelled out (no locale dependence).
  constraint contacts_name_not_blank check (
    name !~ '^[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]*$'
  ),
  constraint contacts_organization_not_blank check (
    organization !~ '^[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]*$'
  ),

  -- something@something.something, no whitespace and a single @ (deliverability is not checked).
  constraint contacts_email_shape check (email ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$')
);

comment on table public.contacts is
  'Meeting requests from the public site. Visitors (anon) may only insert; staff read with the service role.';

create index contacts_email_created_at_idx on public.contacts (lower(email), created_at);

grant insert (name, email, organization, message) on table public.contacts to anon;
grant all on table public.contacts to service_role;
grant usage, select on sequence public.contacts_id_seq to service_role;

-- Not FORCEd: the rate limit runs as the table's owner and must see the rows.
alter table public.contacts enable row level security;

-- The visitors' policy: the rules of the constraints above. A policy that returned false would
-- turn a message that is too long into 42501 (PostgREST: 401, blaming the API key), so for the
-- first rule a row breaks this raises the constraint's own error, in PostgreSQL's order.
create function private.contacts_visitor_request_allowed(
  name text, email text, organization text, message text
)
  returns boolean
  language plpgsql immutable
  set search_path = ''
as $$
declare
  blank constant text := '^[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]*$';
  missing text;
  broken text;
begin
  missing := case
    when name is null then 'name'
    when email is null then 'email'
    when organization is null then 'organization'
    when message is null then 'message'
  end;
  if missing is not null then
    raise exception using
      errcode = 'not_null_violation',
      message = pg_catalog.format('null value in column "%s" of relation "contacts" violates not-null constraint', missing),
      schema = 'public', table = 'contacts', column = missing;
  end if;

  broken := case
    when pg_catalog.char_length(email) > 254 then 'contacts_email_length'
    when email !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' then 'contacts_email_shape'
    when pg_catalog.char_length(message) not between 1 and 6000 then 'contacts_message_length'
    when pg_catalog.char_length(name) not between 1 and 200 then 'contacts_name_length'
    when name ~ blank then 'contacts_name_not_blank'
    when pg_catalog.char_length(organization) not between 1 and 200 then 'contacts_organization_length'
    when organization ~ blank then 'contacts_organization_not_blank'
  end;
  if broken is not null then
    raise exception using
      errcode = 'check_violation',
      message = pg_catalog.format('new row for relation "contacts" violates check constraint "%s"', broken),
      schema = 'public', table = 'contacts', constraint = broken;
  end if;
  return true;
end;
$$;

grant execute on function private.contacts_visitor_request_allowed(text, text, text, text) to anon;

create policy "Visitors can send a meeting request"
  on public.contacts for insert to anon
  with check (private.contacts_visitor_request_allowed(name, email, organization, message));

-- One row per statement (PostgREST makes each HTTP request one INSERT), and at most 5 requests
-- per e-mail address (any case) per rolling hour, counted as the owner (anon reads nothing); a
-- lock per address makes concurrent requests count one another.
create function public.contacts_check_request()
  returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
declare
  address text;
begin
  if (select count(*) from inserted) > 1 then
    raise exception using
      errcode = 'PT400',
      message = 'Only one meeting request can be submitted at a time',
      hint = 'Send each meeting request in its own request.';
  end if;
  select lower(i.email) into address from inserted i;
  if address is null then
    return null;
  end if;
  perform pg_catalog.pg_advisory_xact_lock(
    pg_catalog.hashtextextended('public.contacts rate limit ' || address, 0)
  );
  if (select count(*) from public.contacts c
       where lower(c.email) = address and c.created_at > pg_catalog.now() - interval '1 hour') > 5 then
    raise exception using
      errcode = 'PT429',
      message = 'Too many meeting requests from this e-mail address',
      detail = 'At most 5 meeting requests per e-mail address are accepted per hour.',
      hint = 'Try again later.';
  end if;
  return null;
end;
$$;

-- Only the API roles are limited (staff may import in bulk). Triggers fire in name order.
create trigger contacts_10_check_request
  after insert on public.contacts
  referencing new table as inserted
  for each statement
  when (current_user in ('anon', 'authenticated'))
  execute function public.contacts_check_request();
