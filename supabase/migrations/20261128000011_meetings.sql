-- Meetings booked from the staff e-mail's link (docs/booking.md; issue 33).
--
-- Each staff e-mail about a request carries SITE_URL/book/#<token>: 32 random bytes that only
-- the e-mail holds; the database keeps their SHA-256 (private.booking_links), written by the
-- notify-meeting-request function. The book-meeting function looks a token up
-- (public.booking_lookup: failed guesses are counted and limited per client and in total) and
-- books, moves or cancels in one transaction (public.book_meeting). Only the service role may
-- call either: visitors reach none of this. The meeting's times, the expiry of links and the
-- schedule are the function's (it reads the site's /book/schedule.json); the database keeps the
-- booth's capacity whatever the callers do at once.

-- The campaign a request came from: the page sends `x-campaign: source/medium/campaign` (the
-- tags the visit counter files its events under) with the insert, only when the visit may be
-- counted; this keeps it, so meetings can be counted per campaign. A header that is not such a
-- campaign is ignored: it never refuses a request.
create table private.contact_campaigns (
  contact_id bigint primary key references public.contacts (id) on delete cascade,
  source text not null,
  medium text not null,
  campaign text not null,
  constraint contact_campaigns_tags check (
    source ~ '^([a-z0-9][a-z0-9._-]{0,39})?$'
    and medium ~ '^([a-z0-9][a-z0-9._-]{0,39})?$'
    and campaign ~ '^([a-z0-9][a-z0-9._-]{0,39})?$'
  )
);

create function private.contacts_keep_campaign()
  returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  headers jsonb := coalesce(nullif(pg_catalog.current_setting('request.headers', true), ''), '{}')::jsonb;
  tags text[] := pg_catalog.string_to_array(pg_catalog.lower(headers ->> 'x-campaign'), '/');
begin
  if pg_catalog.cardinality(tags) = 3 and tags <> array['', '', '']
     and tags[1] ~ '^([a-z0-9][a-z0-9._-]{0,39})?$' and tags[2] ~ '^([a-z0-9][a-z0-9._-]{0,39})?$'
     and tags[3] ~ '^([a-z0-9][a-z0-9._-]{0,39})?$' then
    insert into private.contact_campaigns values (new.id, tags[1], tags[2], tags[3]);
  end if;
  return null;
end;
$$;

create trigger contacts_50_keep_campaign
  after insert on public.contacts
  for each row
  execute function private.contacts_keep_campaign();

-- The hashes of the links' tokens. A request has one per e-mail that mentioned it.
create table private.booking_links (
  token_hash text primary key,
  contact_id bigint not null references public.contacts (id) on delete cascade,
  issued_at timestamptz not null default now(),
  constraint booking_links_hash check (token_hash ~ '^[0-9a-f]{64}$')
);
create index booking_links_contact_idx on private.booking_links (contact_id);

-- Failed look-ups of the last hour (the client as a hash), for the guess limit.
create table private.booking_guesses (
  id bigint generated always as identity primary key,
  at timestamptz not null default now(),
  client_hash text not null
);
create index booking_guesses_at_idx on private.booking_guesses (at, client_hash);

-- One meeting per request (its primary key). A cancelled meeting keeps its row, UID and
-- SEQUENCE; booked again, it gets a new UID. Staff read it in the Table Editor.
create table public.meetings (
  contact_id bigint primary key references public.contacts (id) on delete cascade,
  uid uuid not null default gen_random_uuid(),
  starts_at timestamptz not null,
  ends_at timestamptz not null,
  sequence integer not null default 0,
  cancelled_at timestamptz,
  booked_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint meetings_times check (ends_at > starts_at),
  constraint meetings_sequence check (sequence >= 0)
);
create index meetings_booked_idx on public.meetings (starts_at, ends_at) where cancelled_at is null;

comment on table public.meetings is
  'Meetings at the booth booked by staff from the link in their e-mail (the book-meeting Edge Function, as service_role).';

revoke all on table public.meetings from anon, authenticated;
grant select, insert, update, delete on table public.meetings to service_role;
alter table public.meetings enable row level security;
create policy "Service role manages meetings"
  on public.meetings for all to service_role
  using (true) with check (true);
grant select, insert, delete on table private.booking_links, private.booking_guesses to service_role;
grant select on table private.contact_campaigns to service_role;

-- The notification function's call: the hashes of the tokens it puts in one e-mail, as
-- [{"contact_id": 42, "token_hash": "<64 hex digits>"}, …].
create function public.issue_booking_links(links jsonb)
  returns table (issued integer)
  language sql
  volatile
  set search_path = ''
as $$
  with issued as (
    insert into private.booking_links (contact_id, token_hash)
    select l.contact_id, l.token_hash
      from pg_catalog.jsonb_to_recordset(links) as l(contact_id bigint, token_hash text)
    returning 1
  )
  select pg_catalog.count(*)::integer from issued;
$$;

-- The request a token opens, its meeting and the meetings booked around the expo days, as
-- {"found": {...}}; or {"unknown": true} (a failed guess, counted), or {"limited": true} when
-- the client (or everyone together) failed too often this hour. Reads nothing else.
create function public.booking_lookup(token_hash text, client text, from_at timestamptz, to_at timestamptz)
  returns jsonb
  language plpgsql
  volatile
  set search_path = ''
as $$
declare
  client_key text := pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to(coalesce(client, ''), 'UTF8')), 'hex');
  request public.contacts;
begin
  delete from private.booking_guesses g where g.at < pg_catalog.now() - interval '1 hour';
  if (select pg_catalog.count(*) from private.booking_guesses g where g.client_hash = client_key) >= 20
     or (select pg_catalog.count(*) from private.booking_guesses) >= 500 then
    return '{"limited": true}';
  end if;
  select c.* into request
    from private.booking_links l join public.contacts c on c.id = l.contact_id
   where l.token_hash = booking_lookup.token_hash;
  if not found then
    insert into private.booking_guesses (client_hash) values (client_key);
    return '{"unknown": true}';
  end if;
  return pg_catalog.jsonb_build_object('found', pg_catalog.jsonb_build_object(
    'id', request.id, 'createdAt', request.created_at, 'name', request.name,
    'organization', request.organization, 'email', request.email, 'message', request.message,
    'meeting', (select pg_catalog.to_jsonb(m) from public.meetings m
                 where m.contact_id = request.id and m.cancelled_at is null),
    'booked', coalesce((select pg_catalog.jsonb_agg(pg_catalog.jsonb_build_array(m.starts_at, m.ends_at))
                          from public.meetings m
                         where m.cancelled_at is null and m.starts_at < to_at and m.ends_at > from_at), '[]')));
end;
$$;

-- Books ('book'), moves ('move') or cancels ('cancel') the meeting of the request a token
-- opens, in one transaction. One lock for every booking, so overlapping meetings (whatever the
-- slot grid) are counted against the capacity with none half-written. Answers {"outcome": …}:
-- booked, moved, cancelled; or full (nothing changed), already-booked, not-booked, gone.
create function public.book_meeting(
  token_hash text,
  action text,
  starts_at timestamptz default null,
  ends_at timestamptz default null,
  capacity integer default 1
)
  returns jsonb
  language plpgsql
  volatile
  set search_path = ''
as $$
declare
  request public.contacts;
  meeting public.meetings;
  previous timestamptz;
begin
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended('public.meetings booking', 0));
  select c.* into request
    from private.booking_links l join public.contacts c on c.id = l.contact_id
   where l.token_hash = book_meeting.token_hash;
  if not found then
    return '{"outcome": "gone"}';
  end if;
  select * into meeting from public.meetings m where m.contact_id = request.id;
  if meeting.cancelled_at is null and meeting.contact_id is not null then
    previous := meeting.starts_at;
  end if;
  if action = 'book' and previous is not null then
    return pg_catalog.jsonb_build_object('outcome', 'already-booked', 'meeting', pg_catalog.to_jsonb(meeting));
  elsif action in ('move', 'cancel') and previous is null then
    return '{"outcome": "not-booked"}';
  elsif action not in ('book', 'move', 'cancel') then
    raise exception using errcode = '22023', message = 'The action is book, move or cancel';
  end if;

  if action = 'cancel' then
    update public.meetings m
       set cancelled_at = pg_catalog.now(), sequence = m.sequence + 1, updated_at = pg_catalog.now()
     where m.contact_id = request.id
    returning * into meeting;
    return pg_catalog.jsonb_build_object('outcome', 'cancelled', 'meeting', pg_catalog.to_jsonb(meeting),
                                         'previous', previous);
  end if;

  if (select pg_catalog.count(*) from public.meetings m
       where m.cancelled_at is null and m.contact_id <> request.id
         and m.starts_at < book_meeting.ends_at and m.ends_at > book_meeting.starts_at) >= capacity then
    return '{"outcome": "full"}';
  end if;
  insert into public.meetings as m (contact_id, starts_at, ends_at)
    values (request.id, book_meeting.starts_at, book_meeting.ends_at)
  on conflict (contact_id) do update
    set starts_at = excluded.starts_at,
        ends_at = excluded.ends_at,
        -- Booked again after a cancellation: a new event; moved: the same one, one SEQUENCE on.
        uid = case when m.cancelled_at is null then m.uid else gen_random_uuid() end,
        sequence = case when m.cancelled_at is null then m.sequence + 1 else 0 end,
        cancelled_at = null,
        booked_at = case when m.cancelled_at is null then m.booked_at else pg_catalog.now() end,
        updated_at = pg_catalog.now()
  returning * into meeting;
  return pg_catalog.jsonb_build_object('outcome', case when previous is null then 'booked' else 'moved' end,
                                       'meeting', pg_catalog.to_jsonb(meeting), 'previous', previous);
end;
$$;

revoke all on function private.contacts_keep_campaign() from public, anon, authenticated;
revoke all on function public.issue_booking_links(jsonb) from public, anon, authenticated;
revoke all on function public.booking_lookup(text, text, timestamptz, timestamptz) from public, anon, authenticated;
revoke all on function public.book_meeting(text, text, timestamptz, timestamptz, integer) from public, anon, authenticated;
grant execute on function public.issue_booking_links(jsonb) to service_role;
grant execute on function public.booking_lookup(text, text, timestamptz, timestamptz) to service_role;
grant execute on function public.book_meeting(text, text, timestamptz, timestamptz, integer) to service_role;

-- The funnel ends in meetings: booked (not cancelled) meetings per campaign, counted on the UTC
-- day their request came in, next to what the page counted (from the database, never from link
-- clicks, which mail scanners inflate).
create or replace view public.site_funnel_daily
  with (security_invoker = true)
as
  with funnel as (
    select c.day, c.source, c.medium, c.campaign,
           sum(c.count) filter (where c.kind = 'view')::bigint as views,
           sum(c.count) filter (where c.kind = 'cta')::bigint as cta_taps,
           sum(c.count) filter (where c.kind = 'form_start')::bigint as form_starts,
           sum(c.count) filter (where c.kind = 'request_sent')::bigint as requests,
           sum(c.count) filter (where c.kind = 'request_failed')::bigint as failures
      from private.site_event_counts c
     group by c.day, c.source, c.medium, c.campaign
  ), meetings as (
    select (c.created_at at time zone 'UTC')::date as day, coalesce(k.source, '') as source,
           coalesce(k.medium, '') as medium, coalesce(k.campaign, '') as campaign, pg_catalog.count(*) as meetings
      from public.meetings m
      join public.contacts c on c.id = m.contact_id
      left join private.contact_campaigns k on k.contact_id = m.contact_id
     where m.cancelled_at is null
     group by 1, 2, 3, 4
  )
  select day, source, medium, campaign, f.views, f.cta_taps, f.form_starts, f.requests, f.failures,
         coalesce(m.meetings, 0)::bigint as meetings
    from funnel f
    full join meetings m using (day, source, medium, campaign)
   order by day desc, views desc nulls last, source, medium, campaign;

-- public.site_analytics_report (20261128000010) with `meetings` in the totals, each campaign and
-- each day: the counters' report, then the meetings added from the funnel view.
alter function public.site_analytics_report(date, date) rename to site_counters_report;
alter function public.site_counters_report(date, date) set schema private;

create function public.site_analytics_report(from_day date, to_day date)
  returns jsonb
  language sql
  stable
  set search_path = ''
as $$
  with report as (
    select private.site_counters_report(from_day, to_day) as r
  ), meetings as (
    select f.day, f.source, f.medium, f.campaign, f.meetings from public.site_funnel_daily f
     where f.day between from_day and to_day and f.meetings > 0
  ), campaigns as (
    select coalesce(e.value, pg_catalog.jsonb_build_object('source', m.source, 'medium', m.medium,
             'campaign', m.campaign, 'views', 0, 'ctaTaps', 0, 'formStarts', 0, 'requests', 0, 'failures', 0))
           || pg_catalog.jsonb_build_object('meetings', coalesce(m.meetings, 0)) as row
      from (select e.value from report, pg_catalog.jsonb_array_elements(report.r -> 'campaigns') e) e
      full join (select source, medium, campaign, sum(meetings)::bigint as meetings from meetings group by 1, 2, 3) m
        on (m.source, m.medium, m.campaign) = (e.value ->> 'source', e.value ->> 'medium', e.value ->> 'campaign')
  )
  select report.r || pg_catalog.jsonb_build_object(
    'totals', (report.r -> 'totals') || pg_catalog.jsonb_build_object('meetings', (select coalesce(sum(meetings), 0) from meetings)),
    'campaigns', coalesce((select pg_catalog.jsonb_agg(c.row order by (c.row ->> 'views')::bigint desc,
                   (c.row ->> 'meetings')::bigint desc, (c.row ->> 'requests')::bigint desc,
                   c.row ->> 'source', c.row ->> 'medium', c.row ->> 'campaign') from campaigns c), '[]'),
    'days', coalesce((select pg_catalog.jsonb_agg(d.value || pg_catalog.jsonb_build_object('meetings',
                   (select coalesce(sum(m.meetings), 0) from meetings m where m.day = (d.value ->> 'date')::date))
                   order by d.ordinality)
              from pg_catalog.jsonb_array_elements(report.r -> 'days') with ordinality d), '[]'))
    from report;
$$;

revoke all on function private.site_counters_report(date, date) from public, anon, authenticated;
revoke all on function public.site_analytics_report(date, date) from public, anon, authenticated;
grant execute on function private.site_counters_report(date, date) to service_role;
grant execute on function public.site_analytics_report(date, date) to service_role;
