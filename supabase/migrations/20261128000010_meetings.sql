-- Meetings booked from the staff e-mail's link (docs/booking.md), through the book-meeting
-- function as service_role. Times, schedule and link expiry are the function's; the database
-- keeps the token's hash, the guess limit and the booth's capacity.

-- The campaign of a request's `x-campaign: source/medium/campaign` header, for meetings per
-- campaign. Any other header is ignored: it never refuses a request.
create table private.contact_campaigns (
  contact_id bigint primary key references public.contacts (id) on delete cascade,
  source text not null,
  medium text not null,
  campaign text not null
);

create function private.contacts_keep_campaign()
  returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
declare
  headers jsonb := coalesce(nullif(pg_catalog.current_setting('request.headers', true), ''), '{}')::jsonb;
  header text := pg_catalog.lower(headers ->> 'x-campaign');
  tag text := '([a-z0-9][a-z0-9._-]{0,39})?';
  tags text[] := pg_catalog.string_to_array(header, '/');
begin
  if header ~ ('^' || tag || '/' || tag || '/' || tag || '$') and header <> '//' then
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
  constraint meetings_times check (ends_at > starts_at)
);
create index meetings_booked_idx on public.meetings (starts_at, ends_at) where cancelled_at is null;

comment on table public.meetings is
  'Meetings at the booth booked by staff from the link in their e-mail (the book-meeting Edge Function, as service_role).';

grant select, insert, update, delete on table public.meetings to service_role;
alter table public.meetings enable row level security;
grant select, insert, delete on table private.booking_links, private.booking_guesses to service_role;
grant select on table private.contact_campaigns to service_role;

-- notify-meeting-request's call per e-mail: [{"contact_id": 42, "token_hash": "<64 hex>"}, …].
create function public.issue_booking_links(links jsonb)
  returns integer
  language sql volatile
  set search_path = ''
as $$
  insert into private.booking_links (contact_id, token_hash)
  select l.contact_id, l.token_hash
    from pg_catalog.jsonb_to_recordset(links) as l(contact_id bigint, token_hash text);
  select pg_catalog.jsonb_array_length(links);
$$;

-- The request a token opens, its meeting and every booked meeting's times, as {"found": {...}};
-- or {"unknown": true} (a failed guess, counted), or {"limited": true} when the client (or
-- everyone together) failed too often this hour.
create function public.booking_lookup(token_hash text, client text)
  returns jsonb
  language plpgsql volatile
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
                          from public.meetings m where m.cancelled_at is null), '[]')));
end;
$$;

-- Books, moves or cancels the meeting of the request a token opens (the function checks the
-- action), in one transaction under one lock, so overlapping meetings are counted against the
-- capacity with none half-written. Answers {"outcome": booked | moved | cancelled | full |
-- already-booked | not-booked | gone}.
create function public.book_meeting(token_hash text, action text, starts_at timestamptz,
                                    ends_at timestamptz, capacity integer)
  returns jsonb
  language plpgsql volatile
  set search_path = ''
as $$
declare
  request public.contacts;
  meeting public.meetings;
begin
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended('public.meetings booking', 0));
  select c.* into request
    from private.booking_links l join public.contacts c on c.id = l.contact_id
   where l.token_hash = book_meeting.token_hash;
  if not found then
    return '{"outcome": "gone"}';
  end if;
  select * into meeting from public.meetings m where m.contact_id = request.id and m.cancelled_at is null;
  if action = 'book' and found then
    return pg_catalog.jsonb_build_object('outcome', 'already-booked', 'meeting', pg_catalog.to_jsonb(meeting));
  elsif action in ('move', 'cancel') and not found then
    return '{"outcome": "not-booked"}';
  end if;

  if action = 'cancel' then
    update public.meetings m
       set cancelled_at = pg_catalog.now(), sequence = m.sequence + 1, updated_at = pg_catalog.now()
     where m.contact_id = request.id
    returning * into meeting;
    return pg_catalog.jsonb_build_object('outcome', 'cancelled', 'meeting', pg_catalog.to_jsonb(meeting));
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
  return pg_catalog.jsonb_build_object('outcome', case when action = 'book' then 'booked' else 'moved' end,
                                       'meeting', pg_catalog.to_jsonb(meeting));
end;
$$;

grant execute on function public.issue_booking_links(jsonb) to service_role;
grant execute on function public.booking_lookup(text, text) to service_role;
grant execute on function public.book_meeting(text, text, timestamptz, timestamptz, integer) to service_role;
