-- What staff read of the site analytics (docs/analytics.md) as service_role: the funnel view, the
-- report (`npm run report`) and its weekly e-mail, booked meetings per campaign included.

-- Booked (not cancelled) meetings per campaign, on the UTC day their request came in: counted
-- from the database, never from link clicks (which mail scanners inflate).
create view private.meeting_counts
  with (security_invoker = true)
as
  select (c.created_at at time zone 'UTC')::date as day,
         coalesce(k.source, '') as source,
         coalesce(k.medium, '') as medium,
         coalesce(k.campaign, '') as campaign,
         pg_catalog.count(*) as meetings
    from public.meetings m
    join public.contacts c on c.id = m.contact_id
    left join private.contact_campaigns k on k.contact_id = m.contact_id
   where m.cancelled_at is null
   group by 1, 2, 3, 4;

grant select on table private.meeting_counts to service_role;

-- The funnel per day and campaign, booked meetings included, for the dashboard.
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
         sum(c.count) filter (where c.kind = 'request_failed')::bigint as failures,
         coalesce(sum(c.count) filter (where c.kind = 'meeting'), 0)::bigint as meetings
    from (select e.day, e.kind, e.source, e.medium, e.campaign, e.count from private.site_event_counts e
          union all
          select m.day, 'meeting', m.source, m.medium, m.campaign, m.meetings from private.meeting_counts m) c
   group by c.day, c.source, c.medium, c.campaign
   order by c.day desc, views desc nulls last, c.source, c.medium, c.campaign;

grant select on table public.site_funnel_daily to service_role;

-- The report for a range of UTC days (both included), as `npm run report -- --json` prints it.
create function public.site_analytics_report(from_day date, to_day date)
  returns jsonb
  language sql stable
  set search_path = ''
as $$
  with counts as (
    select c.day, c.kind, c.source, c.medium, c.campaign, c.referrer, c.cta, c.count
      from private.site_event_counts c where c.day between from_day and to_day
    union all
    select m.day, 'meeting', m.source, m.medium, m.campaign, '', '', m.meetings
      from private.meeting_counts m where m.day between from_day and to_day
  ),
  funnel as (
    select c.source, c.medium, c.campaign, c.day,
           grouping(c.source, c.day) as level,
           pg_catalog.jsonb_build_object(
             'views', coalesce(sum(c.count) filter (where c.kind = 'view'), 0),
             'ctaTaps', coalesce(sum(c.count) filter (where c.kind = 'cta'), 0),
             'formStarts', coalesce(sum(c.count) filter (where c.kind = 'form_start'), 0),
             'requests', coalesce(sum(c.count) filter (where c.kind = 'request_sent'), 0),
             'failures', coalesce(sum(c.count) filter (where c.kind = 'request_failed'), 0),
             'meetings', coalesce(sum(c.count) filter (where c.kind = 'meeting'), 0)) as figures
      from counts c
     group by grouping sets ((), (c.source, c.medium, c.campaign), (c.day))
  )
  select pg_catalog.jsonb_build_object(
    'from', from_day,
    'to', to_day,
    'totals', (select f.figures from funnel f where f.level = 3),
    'campaigns', coalesce((select pg_catalog.jsonb_agg(
                   pg_catalog.jsonb_build_object('source', f.source, 'medium', f.medium, 'campaign', f.campaign) || f.figures
                   order by (f.figures ->> 'views')::bigint desc, (f.figures ->> 'meetings')::bigint desc,
                            (f.figures ->> 'requests')::bigint desc,
                            f.source, f.medium, f.campaign)
                   from funnel f where f.level = 1), '[]'::jsonb),
    'referrers', coalesce((select pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('domain', r.domain, 'views', r.views)
                   order by r.views desc, r.domain)
                   from (select c.referrer as domain, sum(c.count)::bigint as views from counts c
                          where c.kind = 'view' and c.referrer <> '' group by c.referrer) r), '[]'::jsonb),
    'ctas', coalesce((select pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('id', t.id, 'taps', t.taps)
                   order by t.taps desc, t.id)
                   from (select c.cta as id, sum(c.count)::bigint as taps from counts c
                          where c.kind = 'cta' group by c.cta) t), '[]'::jsonb),
    'days', (select pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('date', d::date) || coalesce(f.figures,
                      '{"views": 0, "ctaTaps": 0, "formStarts": 0, "requests": 0, "failures": 0, "meetings": 0}') order by d)
               from pg_catalog.generate_series(from_day::timestamp, to_day::timestamp, interval '1 day') as d
               left join funnel f on f.level = 2 and f.day = d::date)
  );
$$;

grant execute on function public.site_analytics_report(date, date) to service_role;

-- The report due for `kind` ('weekly': last Monday to Sunday; 'daily': yesterday, in UTC), as
-- the notification function's body, or null when it was handed out already.
create function public.claim_site_report(kind text)
  returns jsonb
  language plpgsql volatile
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

grant execute on function public.claim_site_report(text) to service_role;

create function public.send_site_report(kind text)
  returns void
  language plpgsql security definer
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

do $$
begin
  if pg_catalog.to_regprocedure('cron.schedule(text,text,text)') is null then
    raise notice 'pg_cron is not here: no report job (the local backend sends reports by itself).';
    return;
  end if;
  perform cron.schedule('site-analytics-weekly-report', '0 7 * * 1', 'select public.send_site_report(''weekly'')');
end;
$$;
