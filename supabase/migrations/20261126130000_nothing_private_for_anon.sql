-- Nothing private is readable with the public key (issue 27; docs/database.md).
--
-- For record_site_event and the page proof, anon had been granted SELECT on five objects in
-- schema private: the visit counters, the hourly salt and client hashes (which together give a
-- visitor's address back: try every IPv4 address), and the proof's two desks. PostgREST does not
-- expose `private`, but pg_graphql reflects whatever anon may SELECT, in any schema: on a project
-- with pg_graphql enabled, /graphql/v1 handed those rows to anyone holding the anon key
-- (Supabase's advisor: pg_graphql_anon_table_exposed). Now anon may only INSERT into three desks
-- (views that store nothing) whose INSTEAD OF triggers do the work as the owner; the answers come
-- back through transaction-local settings, not RETURNING (which needs SELECT).
--
-- Also: pg_net is moved out of schema public where an earlier migration created it there
-- (advisor: extension_in_public).

-- ---------------------------------------------------------------------------------------------
-- The page proof's desks: INSERT only.
revoke select on table private.form_challenge_desk from anon;
revoke select on table private.form_proof_confirmations from anon;

create or replace function public.form_challenge()
  returns jsonb
  language sql
  volatile
  security invoker
  set search_path = ''
as $$
  insert into private.form_challenge_desk default values;
  select pg_catalog.current_setting('form_proof.challenge', true)::jsonb;
$$;

create or replace function private.form_proof_confirm()
  returns trigger
  language plpgsql
  volatile
  security definer
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

create or replace function public.confirm_form_proof(ticket text, proof text)
  returns boolean
  language sql
  volatile
  security invoker
  set search_path = ''
as $$
  insert into private.form_proof_confirmations (ticket, proof) values (ticket, proof);
  select coalesce(pg_catalog.current_setting('form_proof.confirmed', true), 'false')::boolean;
$$;


-- ---------------------------------------------------------------------------------------------
-- Site events: the counting function moves out of reach, behind a desk of its own. Its body is
-- unchanged (20261124200000_site_analytics.sql); it now runs as the owner, from the trigger.
alter function public.record_site_event(text) set schema private;
alter function private.record_site_event(text) rename to count_site_event;
revoke all on function private.count_site_event(text) from public, anon, authenticated;

create view private.site_event_desk with (security_invoker = true) as
  select null::text as event where false;

create function private.site_event_desk_insert()
  returns trigger
  language plpgsql
  volatile
  security definer
  set search_path = ''
as $$
begin
  perform private.count_site_event(new.event);
  return new;
end;
$$;

create trigger site_event_desk_insert
  instead of insert on private.site_event_desk
  for each row
  execute function private.site_event_desk_insert();

-- POSTed by the page as a text/plain body: one unnamed text parameter, as before.
create function public.record_site_event(text)
  returns void
  language sql
  volatile
  security invoker
  set search_path = ''
as $$
  insert into private.site_event_desk (event) values ($1);
$$;

revoke all on function private.site_event_desk_insert() from public, anon, authenticated;
revoke all on function public.record_site_event(text) from public, anon, authenticated;
grant execute on function public.record_site_event(text) to anon;
revoke all on table private.site_event_desk from public, anon, authenticated;
grant insert on table private.site_event_desk to anon;

revoke all on table private.site_event_counts, private.site_event_salts, private.site_event_clients from anon;
revoke all on function private.site_event_limits() from anon;
revoke all on function private.site_event_tag(text) from anon;


-- ---------------------------------------------------------------------------------------------
-- pg_net and pg_cron where Supabase's docs put them (`extensions`, `pg_catalog`). The two
-- earlier migrations now say so; a project that ran them before, without either enabled, has
-- them in public. Neither supports SET SCHEMA, so each is created again: pg_net loses the
-- requests it had queued and not sent (the notification sweep sends those again: their state is
-- in public.contact_notifications); pg_cron's jobs are scheduled again as they were.
do $$
declare
  jobs jsonb;
  job jsonb;
begin
  if exists (select from pg_catalog.pg_extension e join pg_catalog.pg_namespace n on n.oid = e.extnamespace
              where e.extname = 'pg_net' and n.nspname = 'public') then
    begin
      drop extension pg_net;
      create extension pg_net with schema extensions;
    exception when others then
      raise warning 'pg_net stays in schema public (%): move it in the SQL editor with '
        '`drop extension pg_net; create extension pg_net with schema extensions;`', sqlerrm;
    end;
  end if;
  if exists (select from pg_catalog.pg_extension e join pg_catalog.pg_namespace n on n.oid = e.extnamespace
              where e.extname = 'pg_cron' and n.nspname = 'public') then
    begin
      execute 'select coalesce(jsonb_agg(jsonb_build_object(''name'', jobname, ''schedule'', schedule, ''command'', command)), ''[]'')
                 from cron.job where database = current_database()' into jobs;
      drop extension pg_cron;
      create extension pg_cron with schema pg_catalog;
      for job in select * from pg_catalog.jsonb_array_elements(jobs) loop
        if job ->> 'name' is null then
          execute 'select cron.schedule($1, $2)' using job ->> 'schedule', job ->> 'command';
        else
          execute 'select cron.schedule($1, $2, $3)' using job ->> 'name', job ->> 'schedule', job ->> 'command';
        end if;
      end loop;
    exception when others then
      raise warning 'pg_cron stays in schema public (%): move it in the SQL editor (its jobs are dropped with it: '
        'note `select * from cron.job` first) with `drop extension pg_cron; create extension pg_cron with schema pg_catalog;`', sqlerrm;
    end;
  end if;
end;
$$;
