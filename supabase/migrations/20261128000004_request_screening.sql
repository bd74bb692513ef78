-- Screening of the visitors' meeting requests (docs/notifications.md, "Screening, budgets and the
-- digest"). Each visitor insert gets a verdict, which decides how staff hear of it:
--   page-verified   the page's proof checked out: e-mailed one by one within the budgets,
--                   else listed in the next digest;
--   awaiting-proof  the page sent `pending:<ticket>`: held until the page confirms it or its
--                   wait is over (then the digest);
--   suspect         no proof, or a bad one: listed in the next digest.
-- Rows without a page proof are capped (PT429). Content signals only order the digest.

create table public.contact_screening (
  contact_id bigint primary key references public.contacts (id) on delete cascade,
  screened_at timestamptz not null default now(),
  verdict text not null,
  -- form_proof_verdict's answer at the insert; 'confirmed' = pending, then confirmed.
  proof text not null,
  signals text[] not null default '{}',
  -- Keyed hash of the client address; never the address itself.
  client_key text not null,
  -- Requests from the same client address in the window before this one (all verdicts).
  client_recent integer not null default 0,
  -- The free text's md5, for the repeated-text signal.
  text_fingerprint text,
  -- form_proof_ticket_hash of the page's pending ticket.
  ticket_hash text,
  confirmed_at timestamptz,
  -- The page-proved request's budget decision, made at the insert or at the confirmation.
  budget text,
  budget_at timestamptz,
  constraint contact_screening_verdict check (verdict in ('page-verified', 'awaiting-proof', 'suspect')),
  constraint contact_screening_proof check (proof in ('verified', 'pending', 'confirmed', 'invalid', 'missing')),
  constraint contact_screening_budget check (budget in ('one-by-one', 'over-address', 'over-address-burst', 'over-all'))
);

comment on table public.contact_screening is
  'How each visitor request was screened (page proof, content signals, client volume). Staff read it; visitors cannot.';

create index contact_screening_client_idx on public.contact_screening (client_key, screened_at);
create index contact_screening_unverified_idx on public.contact_screening (screened_at)
  where proof in ('pending', 'invalid', 'missing');
create index contact_screening_fingerprint_idx on public.contact_screening (text_fingerprint, screened_at);
create index contact_screening_ticket_idx on public.contact_screening (ticket_hash) where ticket_hash is not null;
create index contact_screening_one_by_one_idx on public.contact_screening (budget_at) where budget = 'one-by-one';
create index contact_screening_client_one_by_one_idx on public.contact_screening (client_key, budget_at) where budget = 'one-by-one';

grant select, insert, update, delete on table public.contact_screening to service_role;
alter table public.contact_screening enable row level security;

-- Signals that need no other row. links: two or more in the message, or any in the name or
-- organization. gibberish: 2+ random-looking words (6 consonants in a row, or 8+ letters with
-- under one vowel in six) making up 30% or more of the words.
create function private.content_signals(name text, organization text, message text)
  returns text[]
  language plpgsql immutable
  set search_path = ''
as $$
declare
  link constant text := '(https?://|www\.|<a\s|\[url)';
  signals text[] := '{}';
  all_text text := name || ' ' || organization || ' ' || message;
  words integer;
  random_words integer;
begin
  if (select count(*) from pg_catalog.regexp_matches(message, link, 'gi')) >= 2
     or name ~* link or organization ~* link then
    signals := signals || 'links'::text;
  end if;
  select count(*),
         count(*) filter (where w ~* '[bcdfghjklmnpqrstvwxz]{6}'
                             or (pg_catalog.length(w) >= 8
                                 and pg_catalog.length(pg_catalog.regexp_replace(w, '[^aeiouyAEIOUY]', '', 'g')) * 6 < pg_catalog.length(w)))
    into words, random_words
    from (select m[1] as w from pg_catalog.regexp_matches(all_text, '([A-Za-z]{4,})', 'g') m) t;
  if random_words >= 2 and random_words * 10 >= words * 3 then
    signals := signals || 'gibberish'::text;
  end if;
  return signals;
end;
$$;

-- Only the free text counts (the page's other labelled answers are alike across visitors, see
-- src/lib/meeting-request.ts), with case, whitespace and punctuation removed. Under 20: none.
create function private.text_fingerprint(message text)
  returns text
  language sql immutable
  set search_path = ''
as $$
  select case when pg_catalog.length(t) >= 20 then pg_catalog.md5(t) end
    from (select pg_catalog.regexp_replace(pg_catalog.lower(
            pg_catalog.regexp_replace(
              pg_catalog.regexp_replace(message, '^(Phone|Fleet Size|Products of Interest|Preferred Meeting Time): [^\n]*$', '', 'gn'),
              '^Challenges/Questions: (None provided$)?', '', 'gn')),
            '[[:space:][:punct:]]+', '', 'g') as t) n;
$$;

-- After the row exists, before its notification row is made (triggers fire in name order).
create function public.contacts_screen_request()
  returns trigger
  language plpgsql security definer
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
  unproved_here integer;
  signals text[];
  fingerprint text;
  verdict text;
  budget text;
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
    select pg_catalog.count(*), pg_catalog.count(*) filter (where s.client_key = client)
      into unproved, unproved_here
      from public.contact_screening s
     where s.proof in ('pending', 'invalid', 'missing') and s.screened_at > window_start;
    if unproved >= settings.unproved_in_all or unproved_here >= settings.unproved_per_address then
      raise exception using
        errcode = 'PT429',
        message = 'Too many meeting requests without the page''s proof '
          || case when unproved >= settings.unproved_in_all then 'right now' else 'from this network address' end,
        detail = case when unproved >= settings.unproved_in_all
          then pg_catalog.format('At most %s meeting requests that were not verified as sent from the site''s page are accepted per %s, from all senders together.',
                                 settings.unproved_in_all, private.duration_words(settings.window_seconds))
          else pg_catalog.format('At most %s meeting requests that were not verified as sent from the site''s page are accepted per network address per %s.',
                                 settings.unproved_per_address, private.duration_words(settings.window_seconds))
        end,
        hint = 'Send the request from the site''s form, which proves it came from the page, or try again later.';
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

create trigger contacts_25_screen_request
  after insert on public.contacts
  for each row
  when (current_user in ('anon', 'authenticated'))
  execute function public.contacts_screen_request();

