-- Budgets on what any address, and all addresses together, can turn into one-by-one staff
-- e-mails, whatever the proof says (issue 27; docs/notifications.md, "Budgets and settings").
--
-- A valid page proof shows that a request came through the page's code, not that a person sent
-- it: a script can run that code. So a page-proved request is e-mailed one by one only within
-- budget (private.screening_settings):
--   one_by_one_per_address        per address per window (20 an hour)
--   one_by_one_per_address_burst  per address at once (4), then one every
--   one_by_one_refill_seconds     (15): a token bucket, so a queue of real visitors at one
--                                 booth keeps its pace while a script's burst is cut short
--   one_by_one_in_all             from all addresses together per window (35 an hour)
-- Past a budget it is stored and listed individually in the next digest, never dropped.
-- A page-proved request is never held back for its words: content signals are recorded (and
-- order the digest), but only a missing or bad proof makes a request suspect.
--
-- contact_screening gains the decision: budget ('one-by-one', 'over-address',
-- 'over-address-burst', 'over-all'; null while not page-proved) and budget_at (when decided: at
-- the insert, or when the page confirmed a pending ticket). The budgets count decisions by
-- budget_at.

alter table public.contact_screening add column budget text;
alter table public.contact_screening add column budget_at timestamptz;
alter table public.contact_screening add constraint contact_screening_budget
  check (budget in ('one-by-one', 'over-address', 'over-address-burst', 'over-all'));
create index contact_screening_one_by_one_idx on public.contact_screening (budget_at) where budget = 'one-by-one';
create index contact_screening_client_one_by_one_idx on public.contact_screening (client_key, budget_at) where budget = 'one-by-one';

-- Requests stored before the budgets: those notified one by one count as such.
update public.contact_screening s
   set budget = 'one-by-one', budget_at = coalesce(s.confirmed_at, s.screened_at)
 where s.verdict = 'page-verified';


-- Each address's token bucket, kept as the time its bucket is full again (the "theoretical
-- arrival time" of GCRA): a grant moves it one_by_one_refill_seconds later; a request finding it
-- more than (burst - 1) refills ahead is over the burst.
create table private.one_by_one_pace (
  client_key text primary key,
  full_again_at timestamptz not null
);
create index one_by_one_pace_full_again_idx on private.one_by_one_pace (full_again_at);
revoke all on table private.one_by_one_pace from public, anon, authenticated, service_role;
alter table private.one_by_one_pace enable row level security;

-- Whether a page-proved request from `client` may be e-mailed one by one now, and if so, counts
-- it against the bucket. Called with the screening's lock held (contacts_screen_request,
-- form_proof_confirmed), so decisions are made one at a time.
create function private.one_by_one_budget(client text)
  returns text
  language plpgsql
  volatile
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

revoke all on function private.one_by_one_budget(text) from public, anon, authenticated;


-- The screening trigger (replaces 20261124110000's): the caps on unproved rows and the window
-- come from the settings; the verdict comes from the proof alone; page-proved requests get a
-- budget decision.
create or replace function public.contacts_screen_request()
  returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  settings private.screening_settings;
  headers text := pg_catalog.current_setting('request.headers', true);
  window_start timestamptz;
  proof_header text;
  proof text;
  client text;
  recent integer;
  unproved integer;
  signals text[];
  fingerprint text;
  verdict text;
  budget text;
  again text;
begin
  select * into settings from private.screening_settings;
  window_start := pg_catalog.now() - pg_catalog.make_interval(secs => settings.window_seconds);
  begin
    proof_header := headers::json ->> 'x-form-proof';
  exception when others then
    proof_header := null;
  end;
  proof := private.form_proof_verdict(proof_header);
  client := private.client_key(private.client_address(headers));

  -- One at a time past this point, so concurrent requests count one another.
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended('public.contact_screening unverified', 0));
  if proof <> 'verified' then
    again := 'Send the request from the site''s form, which proves it came from the page, or try again in '
      || case settings.window_seconds when 3600 then 'an hour' when 60 then 'a minute' else private.duration_words(settings.window_seconds) end || '.';
    select pg_catalog.count(*) into unproved
      from public.contact_screening s
     where s.proof in ('pending', 'invalid', 'missing') and s.screened_at > window_start;
    if unproved >= settings.unproved_in_all then
      raise exception using
        errcode = 'PT429',
        message = 'Too many meeting requests without the page''s proof right now',
        detail = pg_catalog.format('At most %s meeting requests that were not verified as sent from the site''s page are accepted per %s, from all senders together.',
                                   settings.unproved_in_all, private.duration_words(settings.window_seconds)),
        hint = again;
    end if;
    select pg_catalog.count(*) into unproved
      from public.contact_screening s
     where s.client_key = client and s.proof in ('pending', 'invalid', 'missing') and s.screened_at > window_start;
    if unproved >= settings.unproved_per_address then
      raise exception using
        errcode = 'PT429',
        message = 'Too many meeting requests without the page''s proof from this network address',
        detail = pg_catalog.format('At most %s meeting requests that were not verified as sent from the site''s page are accepted per network address per %s.',
                                   settings.unproved_per_address, private.duration_words(settings.window_seconds)),
        hint = again;
    end if;
  end if;

  select pg_catalog.count(*) into recent
    from public.contact_screening s
   where s.client_key = client and s.screened_at > window_start;

  signals := private.content_signals(new.name, new.organization, new.message);
  fingerprint := private.text_fingerprint(new.message);
  if fingerprint is not null and (
       select pg_catalog.count(*) from public.contact_screening s
        where s.text_fingerprint = fingerprint and s.screened_at > window_start
     ) >= 2 then
    signals := signals || 'repeated-text'::text;
  end if;

  verdict := case proof when 'verified' then 'page-verified' when 'pending' then 'awaiting-proof' else 'suspect' end;
  if verdict = 'page-verified' then
    budget := private.one_by_one_budget(client);
  end if;

  insert into public.contact_screening
    (contact_id, verdict, proof, signals, client_key, client_recent, text_fingerprint, ticket_hash, budget, budget_at)
  values
    (new.id, verdict, proof, signals, client, recent, fingerprint,
     case when proof = 'pending' then private.form_proof_ticket_hash(proof_header) end,
     budget, case when budget is not null then pg_catalog.now() end);
  return null;
end;
$$;


-- The outbox row by verdict and budget (replaces 20261124110000's).
create or replace function public.contacts_queue_notification()
  returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  screening public.contact_screening;
begin
  select * into screening from public.contact_screening s where s.contact_id = new.id;
  insert into public.contact_notifications (contact_id, status, priority, next_attempt_at)
  values (
    new.id,
    case
      when screening.contact_id is null then 'pending'          -- staff's own insert: not screened
      when screening.budget = 'one-by-one' then 'pending'
      when screening.verdict = 'awaiting-proof' then 'held'
      else 'digest'
    end,
    case when screening.budget = 'one-by-one' then 0 else 1 end,
    case when screening.verdict = 'awaiting-proof' then pg_catalog.now() + private.hold_for_proof() else pg_catalog.now() end
  );
  return null;
end;
$$;


-- The page confirmed a pending ticket (replaces 20261124110000's): the request is page-proved
-- whatever its words, and e-mailed one by one if the budgets allow it now; otherwise it waits
-- for the next digest (at once, not at the end of its hold).
create or replace function private.form_proof_confirmed(ticket_hash text)
  returns boolean
  language plpgsql
  security definer
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
    -- Where the hosted webhook is wired (pg_net; 20251123120000), post it now, as an insert does.
    if found and exists (select from pg_catalog.pg_trigger t
                          where t.tgrelid = 'public.contacts'::regclass and t.tgname = 'contacts_40_notify_staff') then
      perform public.post_to_notify_function(public.contact_webhook_payload(c))
         from public.contacts c where c.id = confirmed.contact_id;
    end if;
  end loop;
  return any_confirmed;
end;
$$;
