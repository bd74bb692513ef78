-- The budgets of one-by-one e-mails (docs/notifications.md): a script can run the page's code
-- too, so a page-proved request is e-mailed one by one only within budget, else digested.

-- Each address's token bucket, as the time it is full again (GCRA's "theoretical arrival time").
create table private.one_by_one_pace (
  client_key text primary key,
  full_again_at timestamptz not null
);
create index one_by_one_pace_full_again_idx on private.one_by_one_pace (full_again_at);
alter table private.one_by_one_pace enable row level security;

-- 'one-by-one' (counted) or the budget a page-proved request from `client` is over. Called
-- with the screening's lock held.
create function private.one_by_one_budget(client text)
  returns text
  language plpgsql volatile
  set search_path = ''
as $$
declare
  settings private.screening_settings;
  window_start timestamptz;
  full_again timestamptz;
begin
  select * into settings from private.screening_settings;
  window_start := pg_catalog.now() - pg_catalog.make_interval(secs => settings.window_seconds);
  if (select pg_catalog.count(*) from public.contact_screening s
       where s.client_key = client and s.budget = 'one-by-one' and s.budget_at > window_start) >= settings.one_by_one_per_address then
    return 'over-address';
  end if;
  select greatest(p.full_again_at, pg_catalog.now()) into full_again from private.one_by_one_pace p where p.client_key = client;
  full_again := coalesce(full_again, pg_catalog.now());
  if full_again - pg_catalog.now() > pg_catalog.make_interval(secs => (settings.one_by_one_per_address_burst - 1) * settings.one_by_one_refill_seconds) then
    return 'over-address-burst';
  end if;
  if (select pg_catalog.count(*) from public.contact_screening s
       where s.budget = 'one-by-one' and s.budget_at > window_start) >= settings.one_by_one_in_all then
    return 'over-all';
  end if;
  delete from private.one_by_one_pace p where p.full_again_at < pg_catalog.now();
  insert into private.one_by_one_pace as p (client_key, full_again_at)
    values (client, full_again + pg_catalog.make_interval(secs => settings.one_by_one_refill_seconds))
    on conflict (client_key) do update set full_again_at = excluded.full_again_at;
  return 'one-by-one';
end;
$$;

-- The page proof's confirmation of a pending ticket, within 30 minutes and once: the request is
-- page-proved, and e-mailed one by one if the budgets allow it now, else listed in the next
-- digest at once. True when one was confirmed.
create function private.form_proof_confirmed(ticket_hash text)
  returns boolean
  language plpgsql security definer
  set search_path = ''
as $$
declare
  confirmed record;
  decision text;
  any_confirmed boolean := false;
begin
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended('public.contact_screening unverified', 0));
  for confirmed in
    update public.contact_screening s
       set proof = 'confirmed', confirmed_at = pg_catalog.now(), verdict = 'page-verified'
     where s.ticket_hash = form_proof_confirmed.ticket_hash
       and s.proof = 'pending'
       and s.screened_at > pg_catalog.now() - interval '30 minutes'
    returning s.contact_id, s.client_key
  loop
    any_confirmed := true;
    decision := private.one_by_one_budget(confirmed.client_key);
    update public.contact_screening s
       set budget = decision, budget_at = pg_catalog.now()
     where s.contact_id = confirmed.contact_id;
    if decision <> 'one-by-one' then
      update public.contact_notifications n
         set status = 'digest', next_attempt_at = pg_catalog.now()
       where n.contact_id = confirmed.contact_id and n.status = 'held';
      continue;
    end if;
    update public.contact_notifications n
       set status = 'pending', priority = 0, next_attempt_at = pg_catalog.now()
     where n.contact_id = confirmed.contact_id
       and n.status in ('held', 'digest', 'digested');
    -- Where the hosted webhook is wired, post it now, as an insert does.
    if found and exists (select from pg_catalog.pg_trigger t
                          where t.tgrelid = 'public.contacts'::regclass and t.tgname = 'contacts_40_notify_staff') then
      perform public.post_to_notify_function(public.contact_webhook_payload(c))
         from public.contacts c where c.id = confirmed.contact_id;
    end if;
  end loop;
  return any_confirmed;
end;
$$;

