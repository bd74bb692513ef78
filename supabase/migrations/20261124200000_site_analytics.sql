-- Site analytics without a tracker (docs/analytics.md explains the whole design).
--
-- What is stored: counters, one row per (UTC day, event kind, campaign source/medium/campaign,
-- referrer domain, call-to-action id) with how many times it happened. Nothing per visit, no
-- address, no user agent, no identifier: a row says "12 page views from the LinkedIn campaign on
-- 24 November", never who. The only per-client state is the hourly limiter below, keyed by a
-- salted hash whose salt is deleted when the hour ends.
--
-- Visitors (anon) have one path in: public.record_site_event(text), POSTed by the page as a
-- text/plain body (PostgREST calls a function with one unnamed text parameter with the raw body),
-- so the browser sends a CORS "simple request" with no preflight. It validates every value,
-- applies the limits and adds one to a counter. The tables live in schema `private`, which the
-- API does not expose: anon holds the rights the function needs on them, but can reach them
-- through that function only. The function is SECURITY INVOKER (no SECURITY DEFINER function is
-- executable by anon: Supabase's advisor lint anon_security_definer_function_executable).
--
-- Staff read public.site_funnel_daily (the dashboard), public.site_analytics_report(from, to)
-- (`npm run report`, the e-mail) with the service role. pg_cron (where it exists) sends the
-- weekly report through the notify-meeting-request function; the local backend's notifier plays
-- that part locally.

create schema if not exists private;
revoke all on schema private from public;
grant usage on schema private to anon, service_role;

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
  -- A host name (the page sends only the referrer's domain), never an IP address or a path.
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

-- The hourly limiter: how many events each client sent this clock hour, keyed by
-- sha256(salt of the hour || address). The salt is random per hour and deleted with the hour's
-- buckets, so a bucket cannot be linked to an address (or to the next hour) afterwards.
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

-- Which reports were sent (so a report goes out once per period, whoever asks).
create table private.site_report_runs (
  kind text not null,
  period_start date not null,
  period_end date not null,
  queued_at timestamptz not null default now(),
  primary key (kind, period_end),
  constraint site_report_runs_kind check (kind in ('daily', 'weekly'))
);

revoke all on private.site_event_counts, private.site_event_salts, private.site_event_clients, private.site_report_runs
  from public, anon, authenticated;
-- What record_site_event needs, as the role that calls it (reachable through it only).
grant select, insert, update on private.site_event_counts to anon;
grant select, insert, delete on private.site_event_salts to anon;
grant select, insert, update, delete on private.site_event_clients to anon;
grant select on private.site_event_counts to service_role;
grant select, insert on private.site_report_runs to service_role;


-- The limits (docs/analytics.md says why these numbers).
create function private.site_event_limits()
  returns table (events_per_client_hour integer, new_counters_per_day integer)
  language sql
  immutable
  set search_path = ''
as $$
  select 600, 1000;
$$;

revoke all on function private.site_event_limits() from public;
grant execute on function private.site_event_limits() to anon, service_role;


-- A campaign tag as stored: trimmed, lower case, runs of spaces as one '-'. The page does the
-- same (src/lib/site-analytics/campaign.ts); what still does not fit the constraint is refused.
create function private.site_event_tag(value text)
  returns text
  language sql
  immutable
  set search_path = ''
as $$
  select pg_catalog.regexp_replace(pg_catalog.lower(pg_catalog.btrim(coalesce(value, ''))), '\s+', '-', 'g');
$$;

revoke all on function private.site_event_tag(text) from public;
grant execute on function private.site_event_tag(text) to anon, service_role;


-- One event from the page. The body is a JSON object (text/plain):
--   {"kind":"view","source":"linkedin","medium":"social","campaign":"expo-2025","referrer":"linkedin.com"}
--   {"kind":"cta","cta":"hero"}   {"kind":"form_start"}   {"kind":"request_sent"}   {"kind":"request_failed"}
-- Anything else is refused with 400 (22023), a client over its hourly allowance or a day out of
-- new counters with 429 (PT429). With Sec-GPC: 1 or DNT: 1 on the request nothing is counted.
create function public.record_site_event(text)
  returns void
  language plpgsql
  volatile
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
  limits record;
begin
  -- The visitor's browser asked not to be tracked: count nothing, answer as if counted.
  if headers ->> 'sec-gpc' = '1' or headers ->> 'dnt' = '1' then
    return;
  end if;

  if $1 is null or pg_catalog.length($1) > 1000 then
    raise exception using errcode = '22023', message = 'A site event is a JSON object of at most 1000 characters';
  end if;
  begin
    event := $1::jsonb;
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
  if ev_kind is null or ev_kind not in ('view', 'cta', 'form_start', 'request_sent', 'request_failed') then
    raise exception using errcode = '22023', message = 'Unknown site event kind';
  end if;
  if ev_source !~ '^([a-z0-9][a-z0-9._-]{0,39})?$' or ev_medium !~ '^([a-z0-9][a-z0-9._-]{0,39})?$'
     or ev_campaign !~ '^([a-z0-9][a-z0-9._-]{0,39})?$' then
    raise exception using errcode = '22023', message = 'Campaign tags are up to 40 letters, digits, dots, dashes or underscores';
  end if;
  if ev_referrer <> '' and (ev_kind <> 'view' or pg_catalog.length(ev_referrer) > 253
     or ev_referrer !~ '^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]([a-z0-9-]{0,61}[a-z0-9])?$') then
    raise exception using errcode = '22023', message = 'The referrer is a domain name, sent with page views only';
  end if;
  if (ev_kind = 'cta') <> (ev_cta <> '') or (ev_cta <> '' and ev_cta !~ '^(hero|consulting|expo|footer|offering-[1-9][0-9]?)$') then
    raise exception using errcode = '22023', message = 'Unknown call to action';
  end if;

  select * into limits from private.site_event_limits();

  -- Per client and clock hour. The address is the one Cloudflare sets in front of hosted
  -- Supabase (a client cannot set cf-connecting-ip itself there; X-Real-IP and X-Forwarded-For
  -- carry what a client sent, so they are not read: 20261124110000_request_screening.sql); it is
  -- never stored.
  client := coalesce(nullif(pg_catalog.btrim(headers ->> 'cf-connecting-ip'), ''), 'unknown');
  delete from private.site_event_clients where hour < this_hour;
  delete from private.site_event_salts where hour < this_hour;
  insert into private.site_event_salts (hour) values (this_hour) on conflict (hour) do nothing;
  select s.salt into hour_salt from private.site_event_salts s where s.hour = this_hour;
  insert into private.site_event_clients as c (hour, client_hash, events)
    values (this_hour, pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to(hour_salt || '|' || client, 'UTF8')), 'hex'), 1)
    on conflict (hour, client_hash) do update set events = c.events + 1
    returning c.events into used;
  if used > limits.events_per_client_hour then
    raise exception using errcode = 'PT429',
      message = 'Too many site events from this client this hour',
      hint = pg_catalog.format('At most %s events per client per hour are counted.', limits.events_per_client_hour);
  end if;

  update private.site_event_counts c
     set count = c.count + 1
   where c.day = today and c.kind = ev_kind and c.source = ev_source
     and c.medium = ev_medium and c.campaign = ev_campaign
     and c.referrer = ev_referrer and c.cta = ev_cta;
  if found then
    return;
  end if;

  -- A new counter: at most so many a day, so the table cannot be filled with invented tags.
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('private.site_event_counts'));
  select pg_catalog.count(*) into counters from private.site_event_counts c where c.day = today;
  if counters >= limits.new_counters_per_day then
    raise exception using errcode = 'PT429',
      message = 'Too many different site counters today',
      hint = pg_catalog.format('At most %s counters are created per day; existing ones still count.', limits.new_counters_per_day);
  end if;
  insert into private.site_event_counts as c (day, kind, source, medium, campaign, referrer, cta, count)
    values (today, ev_kind, ev_source, ev_medium, ev_campaign, ev_referrer, ev_cta, 1)
    on conflict on constraint site_event_counts_pkey do update set count = c.count + 1;
end;
$$;

revoke all on function public.record_site_event(text) from public, authenticated;
grant execute on function public.record_site_event(text) to anon;


-- The funnel per day and campaign, for the dashboard (Table Editor → site_funnel_daily).
create view public.site_funnel_daily
  with (security_invoker = true)
as
  select c.day,
         c.source,
         c.medium,
         c.campaign,
         sum(c.count) filter (where c.kind = 'view')::bigint as views,
         sum(c.count) filter (where c.kind = 'cta')::bigint as cta_taps,
         sum(c.count) filter (where c.kind = 'form_start')::bigint as form_starts,
         sum(c.count) filter (where c.kind = 'request_sent')::bigint as requests,
         sum(c.count) filter (where c.kind = 'request_failed')::bigint as failures
    from private.site_event_counts c
   group by c.day, c.source, c.medium, c.campaign
   order by c.day desc, views desc nulls last, c.source, c.medium, c.campaign;

revoke all on table public.site_funnel_daily from public, anon, authenticated;
grant select on table public.site_funnel_daily to service_role;


-- The report for a range of UTC days (both included): what `npm run report -- --json` prints
-- and what the e-mail shows. Campaigns and referrers are sorted by views, then name.
create function public.site_analytics_report(from_day date, to_day date)
  returns jsonb
  language sql
  stable
  set search_path = ''
as $$
  with counts as (
    select * from private.site_event_counts c where c.day between from_day and to_day
  ),
  totals as (
    select coalesce(sum(count) filter (where kind = 'view'), 0)::bigint as views,
           coalesce(sum(count) filter (where kind = 'cta'), 0)::bigint as cta_taps,
           coalesce(sum(count) filter (where kind = 'form_start'), 0)::bigint as form_starts,
           coalesce(sum(count) filter (where kind = 'request_sent'), 0)::bigint as requests,
           coalesce(sum(count) filter (where kind = 'request_failed'), 0)::bigint as failures
      from counts
  ),
  campaigns as (
    select source, medium, campaign,
           coalesce(sum(count) filter (where kind = 'view'), 0)::bigint as views,
           coalesce(sum(count) filter (where kind = 'cta'), 0)::bigint as cta_taps,
           coalesce(sum(count) filter (where kind = 'form_start'), 0)::bigint as form_starts,
           coalesce(sum(count) filter (where kind = 'request_sent'), 0)::bigint as requests,
           coalesce(sum(count) filter (where kind = 'request_failed'), 0)::bigint as failures
      from counts
     group by source, medium, campaign
  ),
  referrers as (
    select referrer as domain, sum(count)::bigint as views
      from counts where kind = 'view' and referrer <> ''
     group by referrer
  ),
  ctas as (
    select cta as id, sum(count)::bigint as taps from counts where kind = 'cta' group by cta
  ),
  days as (
    select d::date as date,
           coalesce(sum(c.count) filter (where c.kind = 'view'), 0)::bigint as views,
           coalesce(sum(c.count) filter (where c.kind = 'cta'), 0)::bigint as cta_taps,
           coalesce(sum(c.count) filter (where c.kind = 'form_start'), 0)::bigint as form_starts,
           coalesce(sum(c.count) filter (where c.kind = 'request_sent'), 0)::bigint as requests,
           coalesce(sum(c.count) filter (where c.kind = 'request_failed'), 0)::bigint as failures
      from pg_catalog.generate_series(from_day::timestamp, to_day::timestamp, interval '1 day') as d
      left join counts c on c.day = d::date
     group by d
  )
  select pg_catalog.jsonb_build_object(
    'from', from_day,
    'to', to_day,
    'totals', (select pg_catalog.jsonb_build_object('views', views, 'ctaTaps', cta_taps, 'formStarts', form_starts,
                                                     'requests', requests, 'failures', failures) from totals),
    'campaigns', coalesce((select pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                   'source', source, 'medium', medium, 'campaign', campaign, 'views', views, 'ctaTaps', cta_taps,
                   'formStarts', form_starts, 'requests', requests, 'failures', failures)
                   order by views desc, requests desc, source, medium, campaign) from campaigns), '[]'::jsonb),
    'referrers', coalesce((select pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('domain', domain, 'views', views)
                   order by views desc, domain) from referrers), '[]'::jsonb),
    'ctas', coalesce((select pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('id', id, 'taps', taps)
                   order by taps desc, id) from ctas), '[]'::jsonb),
    'days', coalesce((select pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                   'date', date, 'views', views, 'ctaTaps', cta_taps, 'formStarts', form_starts,
                   'requests', requests, 'failures', failures) order by date) from days), '[]'::jsonb)
  );
$$;

revoke all on function public.site_analytics_report(date, date) from public, anon, authenticated;
grant execute on function public.site_analytics_report(date, date) to service_role;


-- The report that is due for `kind` ('weekly': last Monday to Sunday; 'daily': yesterday, in
-- UTC), as the notification function's body, or null when it was handed out already. Recording it
-- here makes a report go out once per period, however often the schedule asks.
create function public.claim_site_report(kind text)
  returns jsonb
  language plpgsql
  volatile
  set search_path = ''
as $$
declare
  today date := (pg_catalog.now() at time zone 'UTC')::date;
  period_end date := case kind
    when 'weekly' then pg_catalog.date_trunc('week', today::timestamp)::date - 1
    when 'daily' then today - 1
  end;
  period_start date := case kind when 'weekly' then period_end - 6 else period_end end;
begin
  if period_end is null then
    raise exception using errcode = '22023', message = 'The report kind is daily or weekly';
  end if;
  insert into private.site_report_runs (kind, period_start, period_end)
    values (kind, period_start, period_end)
    on conflict do nothing;
  if not found then
    return null;
  end if;
  return pg_catalog.jsonb_build_object('type', 'REPORT', 'kind', kind,
                                       'report', public.site_analytics_report(period_start, period_end));
end;
$$;

revoke all on function public.claim_site_report(text) from public, anon, authenticated;
grant execute on function public.claim_site_report(text) to service_role;


-- ---------------------------------------------------------------------------------------------
-- Hosted projects: pg_cron sends the weekly report (Monday 07:00 UTC) through the notification
-- function, with the URL and secret from Vault (public.post_to_notify_function, from
-- 20251123120000_contact_notifications.sql). A daily report is one more job (docs/analytics.md):
--   select cron.schedule('site-analytics-daily-report', '0 7 * * *', $$select public.send_site_report('daily')$$);
create function public.send_site_report(kind text)
  returns void
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  body jsonb := public.claim_site_report(kind);
begin
  if body is not null then
    perform public.post_to_notify_function(body);
  end if;
end;
$$;

revoke all on function public.send_site_report(text) from public, anon, authenticated;

do $$
begin
  if not exists (select from pg_catalog.pg_available_extensions where name = 'pg_cron')
     or not exists (select from pg_catalog.pg_available_extensions where name = 'pg_net') then
    raise notice 'pg_cron or pg_net is not available here: no report job (the local backend sends reports by itself).';
    return;
  end if;
  create extension if not exists pg_net with schema extensions;
  create extension if not exists pg_cron with schema pg_catalog;
  perform cron.schedule('site-analytics-weekly-report', '0 7 * * 1', 'select public.send_site_report(''weekly'')');
end;
$$;
