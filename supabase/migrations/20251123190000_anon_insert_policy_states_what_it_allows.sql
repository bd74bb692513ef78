-- The visitors' INSERT policy states what a meeting request may contain (Supabase's Security
-- Advisor warned `rls_policy_always_true` on its `with check (true)`; docs/database.md).
--
-- The rules are the ones the CHECK constraints of public.contacts enforce (same numbers as
-- src/lib/field-limits.ts); the constraints stay, as the second line of defence and for staff.
-- PostgreSQL evaluates a policy's WITH CHECK before the table's constraints, and a policy that
-- merely returned false would turn every refused request into 42501 ("new row violates
-- row-level security policy"), which PostgREST answers with 401: the form would then blame the
-- API key for a message that is too long. So the policy's function raises, for the first rule
-- a request breaks, exactly the error the constraint would have raised (same SQLSTATE, message
-- and constraint name, in the order PostgreSQL checks them: NOT NULL in column order, then the
-- CHECK constraints by name). A test compares the two on a battery of rows.
--
-- The function lives in schema `private`, which the API does not expose (no RPC endpoint);
-- anon needs USAGE and EXECUTE because a policy runs with the rights of the inserting role.

create schema if not exists private;
revoke all on schema private from public;
grant usage on schema private to anon;

create function private.contacts_visitor_request_allowed(
  name text,
  email text,
  organization text,
  message text
)
  returns boolean
  language plpgsql
  immutable
  set search_path = ''
as $$
declare
  -- JavaScript's String.trim() whitespace, as in the contacts_*_not_blank constraints.
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

revoke all on function private.contacts_visitor_request_allowed(text, text, text, text) from public, authenticated;
grant execute on function private.contacts_visitor_request_allowed(text, text, text, text) to anon;

drop policy "Visitors can send a meeting request" on public.contacts;

create policy "Visitors can send a meeting request"
  on public.contacts for insert to anon
  with check (private.contacts_visitor_request_allowed(name, email, organization, message));
