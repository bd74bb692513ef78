-- Site analytics without a tracker (docs/analytics.md): counters per UTC day, event kind,
-- campaign, referrer domain and call to action; nothing per visit. anon's one path in is
-- record_site_event(text), through a desk as in 20261128000003_form_proof_desks.sql.

create table private.site_event_counts (
  day date not null,
  kind text not null,
  source text not null default '',
  medium text not null default '',
  campaign text not null default '',
  referrer text not null default '',
  cta text not null default '',
  count bigint not null default 0,
  constraint site_event_counts_pkey primary key (day, kind, source, medium, campaign, referrer, cta),
  constraint site_event_counts_kind check (kind in ('view', 'cta', 'form_start', 'request_sent', 'request_failed')),
  constraint site_event_counts_tags check (
    source ~ '^([a-z0-9][a-z0-9._-]{0,39})?$'
    and medium ~ '^([a-z0-9][a-z0-9._-]{0,39})?$'
    and campaign ~ '^([a-z0-9][a-z0-9._-]{0,39})?$'
  ),
  -- A host name, never an IP address or a path.
  constraint site_event_counts_referrer check (
    referrer = ''
    or (kind = 'view'
        and length(referrer) <= 253
        and referrer ~ '^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]([a-z0-9-]{0,61}[a-z0-9])?$')
  ),
  -- The calls to action the page has (src/lib/site-analytics/events.ts, CTA_IDS).
  constraint site_event_counts_cta check (
    (kind = 'cta') = (cta <> '') and (cta = '' or cta ~ '^(hero|consulting|expo|footer|offering-[1-9][0-9]?)$')
  ),
  constraint site_event_counts_count check (count >= 0)
);

comment on table private.site_event_counts is
  'Page views, call-to-action taps, form starts and requests per UTC day and campaign: counters only, nothing per visit (docs/analytics.md).';

-- The hourly limiter: events per client this clock hour, keyed by sha256(salt of the hour ||
-- address); the salt goes with the hour, so a bucket cannot be linked to an address afterwards.
create table private.site_event_salts (
  hour timestamptz primary key,
  salt text not null default gen_random_uuid()::text
);

create table private.site_event_clients (
  hour timestamptz not null,
  client_hash text not null,
  events integer not null,
  primary key (hour, client_hash)
);

-- Which reports were sent, so each goes out once per period.
create table private.site_report_runs (
  kind text not null,
  period_start date not null,
  period_end date not null,
  queued_at timestamptz not null default now(),
  primary key (kind, period_end),
  constraint site_report_runs_kind check (kind in ('daily', 'weekly'))
);

grant select on private.site_event_counts to service_role;
grant select, insert on private.site_report_runs to service_role;

-- A campaign tag as stored (as src/lib/site-analytics/campaign.ts makes it): trimmed, lower
-- case, runs of spaces as one '-'.
create function private.site_event_tag(value text)
  returns text
  language sql immutable
  set search_path = ''
as $$
  select pg_catalog.regexp_replace(pg_catalog.lower(pg_catalog.btrim(coalesce(value, ''))), '\s+', '-', 'g');
$$;

-- The desk's trigger (below), as the owner: one event from the page, e.g. {"kind":"cta","cta":
-- "hero"}. Anything else is refused with 22023, a client over its hourly allowance or a day out
-- of new counters with PT429.
create function private.count_site_event()
  returns trigger
  language plpgsql volatile security definer
  set search_path = ''
as $$
declare
  headers jsonb := coalesce(nullif(pg_catalog.current_setting('request.headers', true), ''), '{}')::jsonb;
  event jsonb;
  extra text;
  ev_kind text;
  ev_source text;
  ev_medium text;
  ev_campaign text;
  ev_referrer text;
  ev_cta text;
  today date := (pg_catalog.now() at time zone 'UTC')::date;
  this_hour timestamptz := pg_catalog.date_trunc('hour', pg_catalog.now());
  client text;
  hour_salt text;
  used integer;
  counters integer;
  -- The limits (docs/analytics.md says why these numbers).
  events_per_client_hour constant integer := 600;
  new_counters_per_day constant integer := 1000;
begin
  -- The visitor's browser asked not to be tracked: count nothing, answer as if counted.
  if headers ->> 'sec-gpc' = '1' or headers ->> 'dnt' = '1' then
    return new;
  end if;

  if new.event is null or pg_catalog.length(new.event) > 1000 then
    raise exception using errcode = '22023', message = 'A site event is a JSON object of at most 1000 characters';
  end if;
  begin
    event := new.event::jsonb;
  exception when others then
    raise exception using errcode = '22023', message = 'A site event must be a JSON object';
  end;
  if pg_catalog.jsonb_typeof(event) <> 'object' then
    raise exception using errcode = '22023', message = 'A site event must be a JSON object';
  end if;
  select k into extra
    from pg_catalog.jsonb_each(event) as e(k, v)
   where k not in ('kind', 'source', 'medium', 'campaign', 'referrer', 'cta') or pg_catalog.jsonb_typeof(v) <> 'string'
   limit 1;
  if extra is not null then
    raise exception using errcode = '22023', message = pg_catalog.format('Unknown or non-text site event field: %s', pg_catalog.left(extra, 40));
  end if;

  ev_kind := event ->> 'kind';
  ev_source := private.site_event_tag(event ->> 'source');
  ev_medium := private.site_event_tag(event ->> 'medium');
  ev_campaign := private.site_event_tag(event ->> 'campaign');
  ev_referrer := pg_catalog.lower(coalesce(event ->> 'referrer', ''));
  ev_cta := coalesce(event ->> 'cta', '');
  -- Per client (CF-Connecting-IP) and clock hour; never stored.
  client := coalesce(nullif(pg_catalog.btrim(headers ->> 'cf-connecting-ip'), ''), 'unknown');
  delete from private.site_event_clients where hour < this_hour;
  delete from private.site_event_salts where hour < this_hour;
  insert into private.site_event_salts (hour) values (this_hour) on conflict (hour) do nothing;
  select s.salt into hour_salt from private.site_event_salts s where s.hour = this_hour;
  insert into private.site_event_clients as c (hour, client_hash, events)
    values (this_hour, pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to(hour_salt || '|' || client, 'UTF8')), 'hex'), 1)
    on conflict (hour, client_hash) do update set events = c.events + 1
    returning c.events into used;
  if used > events_per_client_hour then
    raise exception using errcode = 'PT429',
      message = 'Too many site events from this client this hour',
      hint = pg_catalog.format('At most %s events per client per hour are counted.', events_per_client_hour);
  end if;

  update private.site_event_counts c
     set count = c.count + 1
   where c.day = today and c.kind = ev_kind and c.source = ev_source
     and c.medium = ev_medium and c.campaign = ev_campaign
     and c.referrer = ev_referrer and c.cta = ev_cta;
  if found then
    return new;
  end if;

  -- A new counter: at most so many a day, so the table cannot be filled with invented tags.
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('private.site_event_counts'));
  select pg_catalog.count(*) into counters from private.site_event_counts c where c.day = today;
  if counters >= new_counters_per_day then
    raise exception using errcode = 'PT429',
      message = 'Too many different site counters today',
      hint = pg_catalog.format('At most %s counters are created per day; existing ones still count.', new_counters_per_day);
  end if;
  -- The table's constraints are the event's rules.
  begin
    insert into private.site_event_counts as c (day, kind, source, medium, campaign, referrer, cta, count)
      values (today, ev_kind, ev_source, ev_medium, ev_campaign, ev_referrer, ev_cta, 1)
      on conflict on constraint site_event_counts_pkey do update set count = c.count + 1;
  exception when check_violation or not_null_violation then
    raise exception using errcode = '22023', message = 'Not a site event the page sends: ' || sqlerrm;
  end;
  return new;
end;
$$;

create view private.site_event_desk with (security_invoker = true) as
  select null::text as event where false;

create trigger site_event_desk_insert
  instead of insert on private.site_event_desk
  for each row
  execute function private.count_site_event();

-- PostgREST hands a function with one unnamed text parameter the raw body: the page POSTs
-- text/plain, a CORS "simple request" with no preflight.
create function public.record_site_event(text)
  returns void
  language sql volatile security invoker
  set search_path = ''
as $$
  insert into private.site_event_desk (event) values ($1);
$$;

grant execute on function public.record_site_event(text) to anon;
grant insert on table private.site_event_desk to anon;
