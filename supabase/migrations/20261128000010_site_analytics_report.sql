-- What staff read of the site analytics (docs/analytics.md, "Reading it"), as the service role:
-- the funnel view, the report (`npm run report`, the e-mail), and the weekly report e-mail that
-- pg_cron sends through the notify-meeting-request function (locally: the local backend).

-- The funnel per day and campaign, for the dashboard.
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

grant select on table public.site_funnel_daily to service_role;

-- The report for a range of UTC days (both included), as `npm run report -- --json` prints it.
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

grant execute on function public.site_analytics_report(date, date) to service_role;

-- The report due for `kind` ('weekly': last Monday to Sunday; 'daily': yesterday, in UTC), as
-- the notification function's body, or null when it was handed out already.
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

grant execute on function public.claim_site_report(text) to service_role;

-- Sends the report due for `kind` through the notification function.
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


do $$
begin
  if pg_catalog.to_regprocedure('cron.schedule(text,text,text)') is null then
    raise notice 'pg_cron is not here: no report job (the local backend sends reports by itself).';
    return;
  end if;
  perform cron.schedule('site-analytics-weekly-report', '0 7 * * 1', 'select public.send_site_report(''weekly'')');
end;
$$;
