-- Screening of the visitors' meeting requests (docs/notifications.md, "Screening, budgets and the
-- digest"). The anon key is public, so every visitor insert is screened in its own transaction,
-- and the verdict decides how staff hear of it; nothing acknowledged is ever dropped:
--   page-verified   the page's proof checked out: e-mailed one by one within the budgets of
--                   private.one_by_one_budget, else listed in the next digest;
--   awaiting-proof  the page sent `pending:<ticket>`: held until the page confirms it
--                   (private.form_proof_confirmed) or its wait is over (then the digest);
--   suspect         no proof, or a bad one: listed in the next digest.
-- Rows without a page proof are capped per address and in all (429, PT429), so a script cannot
-- fill the table. Content signals (links, gibberish, repeated text) are recorded and order the
-- digest; only the proof decides the verdict. Staff's own inserts (service_role) are not screened.

create table public.contact_screening (
  contact_id bigint primary key references public.contacts (id) on delete cascade,
  screened_at timestamptz not null default now(),
  verdict text not null,
  -- What private.form_proof_verdict said at the insert; 'confirmed' = pending, then confirmed.
  proof text not null,
  signals text[] not null default '{}',
  -- Keyed hash of the client address (hex, 128 bits); never the address itself.
  client_key text not null,
  -- Requests from the same client address in the window before this one (all verdicts).
  client_recent integer not null default 0,
  -- md5 of the free text with case, whitespace and punctuation removed (the repeated-text signal).
  text_fingerprint text,
  -- sha256 of the page's pending ticket (from private.form_proof_ticket_hash).
  ticket_hash text,
  confirmed_at timestamptz,
  -- The page-proved request's budget decision (null while not page-proved), and when it was made:
  -- at the insert, or when the page confirmed its ticket. The budgets count decisions by budget_at.
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
create policy "Service role manages screening"
  on public.contact_screening for all to service_role
  using (true) with check (true);

-- Signals that need no other row (the repeated-text signal is in the trigger). links: two or
-- more links in the message, or any in the name or organization. gibberish: at least 2 words of
-- 4+ Latin letters that look random (a run of 6 consonants, or 8+ letters with fewer than one
-- vowel in six), making up 30% or more of the words; "Schwarzschild" is one among many.
create function private.content_signals(name text, organization text, message text)
  returns text[]
  language plpgsql
  immutable
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

-- The page writes every message as labelled lines (src/lib/meeting-request.ts) whose answers
-- are alike across real visitors, so only the free text counts: the Challenges/Questions answer,
-- or the whole message when it is not in the page's format. Under 20 characters, none.
create function private.text_fingerprint(message text)
  returns text
  language sql
  immutable
  set search_path = ''
as $$
  select case when pg_catalog.length(t) >= 20 then pg_catalog.md5(t) end
    from (select pg_catalog.regexp_replace(pg_catalog.lower(
            pg_catalog.regexp_replace(
              pg_catalog.regexp_replace(message, '^(Phone|Fleet Size|Products of Interest|Preferred Meeting Time): [^\n]*$', '', 'gn'),
              '^Challenges/Questions: (None provided$)?', '', 'gn')),
            '[[:space:][:punct:]]+', '', 'g') as t) n;
$$;

-- After the row exists (the screening row references it), before its notification row is made
-- (triggers fire in name order: 25 before 30).
create function public.contacts_screen_request()
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

create trigger contacts_25_screen_request
  after insert on public.contacts
  for each row
  when (current_user in ('anon', 'authenticated'))
  execute function public.contacts_screen_request();

