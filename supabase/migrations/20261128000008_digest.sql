-- The digest (docs/notifications.md): every request not e-mailed one by one, in one e-mail at most
-- every digest_interval_seconds, the likeliest real first; claimed and finished as service_role.

-- What staff look at: each request with how it was screened and notified. digest_rank: by page
-- proof (verified, pending, invalid, none), then fewer signals, a quieter address, the oldest.
create view public.meeting_requests_overview
  with (security_invoker = true)
as
  select c.id,
         c.created_at,
         c.name,
         c.organization,
         c.email,
         coalesce(s.verdict <> 'page-verified', false) as suspect,
         s.verdict as screening,
         s.proof as page_proof,
         s.signals as screening_signals,
         s.budget as one_by_one_budget,
         s.client_recent as same_address_in_window,
         n.status as notification,
         n.notified_at,
         n.attempts as notification_attempts,
         n.last_error as notification_error,
         case when n.status in ('pending', 'held') then n.next_attempt_at end as next_attempt_at,
         -- Why it is not e-mailed one by one.
         case when n.status in ('held', 'digest', 'digested') then
           (case s.proof when 'missing' then array['no page proof'] when 'invalid' then array['invalid page proof']
                         when 'pending' then array['page proof never confirmed'] else '{}'::text[] end)
           || (case s.budget when 'over-address' then array['over the address budget']
                             when 'over-address-burst' then array['over the address burst budget']
                             when 'over-all' then array['over the overall budget'] else '{}'::text[] end)
         end as held_for,
         n.digest_id as digest,
         case when n.digest_id is not null then
           pg_catalog.row_number() over (
             partition by n.digest_id
             order by case s.proof when 'verified' then 0 when 'confirmed' then 0 when 'pending' then 1 when 'invalid' then 2 else 3 end,
                      pg_catalog.cardinality(coalesce(s.signals, '{}')),
                      s.client_recent,
                      c.created_at,
                      c.id)
         end as digest_rank,
         d.sent_at as digest_sent_at,
         c.message
    from public.contacts c
    left join public.contact_notifications n on n.contact_id = c.id
    left join public.contact_screening s on s.contact_id = c.id
    left join public.contact_digests d on d.id = n.digest_id
   order by c.created_at desc, c.id desc;

grant select on table public.meeting_requests_overview to service_role;

create function private.digest_waiting()
  returns setof public.contact_notifications
  language sql stable
  set search_path = ''
as $$
  select n.* from public.contact_notifications n
   where n.digest_id is null
     and (n.status = 'digest' or (n.status = 'held' and n.next_attempt_at <= pg_catalog.now()));
$$;

-- Whether a digest is due: an unsent one whose lease and back-off are over, or requests waiting
-- and none sent within the interval.
create function public.has_due_contact_digest()
  returns boolean
  language sql stable security definer
  set search_path = ''
as $$
  select exists (
           select from public.contact_digests d
            where d.sent_at is null
              and d.next_attempt_at <= pg_catalog.now()
              and (d.lease_expires_at is null or d.lease_expires_at <= pg_catalog.now()))
      or (not exists (select from public.contact_digests d where d.sent_at is null)
          and not exists (
            select from public.contact_digests d, private.screening_settings s
             where d.sent_at > pg_catalog.now() - pg_catalog.make_interval(secs => s.digest_interval_seconds))
          and exists (select from private.digest_waiting()));
$$;

-- Claims the next digest: the unsent one again (same requests and id, so the same Message-ID),
-- or a new one with every request waiting. Returns the counts and the first requests by rank.
create function public.claim_contact_digest(lease_seconds integer default 120)
  returns table (
    digest_id bigint, lease_token uuid, attempt integer,
    request_count integer, first_at timestamptz, last_at timestamptz,
    client_count integer, interval_seconds integer, reasons jsonb, requests jsonb
  )
  language plpgsql volatile
  set search_path = ''
as $$
#variable_conflict use_column
declare
  digest public.contact_digests;
  settings private.screening_settings;
begin
  select * into settings from private.screening_settings;
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended('public.contact_digests claim', 0));
  if not public.has_due_contact_digest() then
    return;
  end if;
  select * into digest from public.contact_digests d where d.sent_at is null order by d.id limit 1;
  if not found then
    insert into public.contact_digests default values returning * into digest;
    update public.contact_notifications n
       set status = 'digest', digest_id = digest.id
      from private.digest_waiting() w
     where n.contact_id = w.contact_id;
  end if;
  if not exists (select from public.contact_notifications n where n.digest_id = digest.id and n.status = 'digest') then
    -- Everything in it was confirmed by the page meanwhile and notified one by one.
    update public.contact_notifications n set digest_id = null where n.digest_id = digest.id;
    delete from public.contact_digests d where d.id = digest.id;
    return;
  end if;
  update public.contact_digests d
     set lease_token = gen_random_uuid(),
         lease_expires_at = pg_catalog.now() + pg_catalog.make_interval(secs => lease_seconds),
         attempts = d.attempts + 1
   where d.id = digest.id
  returning * into digest;

  return query
  with held as (
    select o.*, s.client_key, coalesce(s.text_fingerprint, 'id:' || o.id) as fingerprint
      from public.meeting_requests_overview o
      left join public.contact_screening s on s.contact_id = o.id
     where o.digest = digest.id and o.notification = 'digest'
  ), copies as (
    select h.fingerprint, pg_catalog.count(*)::integer as n from held h group by h.fingerprint
  ), listed as (
    select h.*, cp.n as copies
      from held h join copies cp on cp.fingerprint = h.fingerprint
     order by h.digest_rank
     limit settings.digest_list_limit
  )
  select digest.id, digest.lease_token, digest.attempts,
         (select pg_catalog.count(*)::integer from held),
         (select pg_catalog.min(h.created_at) from held h),
         (select pg_catalog.max(h.created_at) from held h),
         (select pg_catalog.count(distinct h.client_key)::integer from held h),
         settings.digest_interval_seconds,
         coalesce((select pg_catalog.jsonb_object_agg(x.reason, x.n)
                     from (select r as reason, pg_catalog.count(*)::integer as n
                             from held h, pg_catalog.unnest(h.held_for) r group by r) x), '{}'::jsonb),
         coalesce((select pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                     'id', l.id, 'created_at', l.created_at, 'name', l.name, 'organization', l.organization,
                     'email', l.email, 'message', pg_catalog.left(l.message, 400),
                     'truncated', pg_catalog.char_length(l.message) > 400,
                     'held_for', l.held_for, 'signals', coalesce(l.screening_signals, '{}'),
                     'same_address', l.same_address_in_window, 'copies', l.copies)
                     order by l.digest_rank) from listed l), '[]'::jsonb);
end;
$$;

-- Records the outcome of a claimed digest, as finish_contact_notification does.
create function public.finish_contact_digest(
  digest_id bigint,
  lease uuid,
  failure text default null,
  retry_in_seconds double precision default 300
)
  returns table (digest bigint, recorded boolean)
  language plpgsql volatile
  set search_path = ''
as $$
#variable_conflict use_column
declare
  count_sent integer;
begin
  update public.contact_digests d
     set sent_at = case when failure is null then pg_catalog.now() end,
         last_error = pg_catalog.left(failure, 2000),
         next_attempt_at = case
           when failure is null then d.next_attempt_at
           else pg_catalog.now() + pg_catalog.make_interval(secs => greatest(retry_in_seconds, 0))
         end,
         lease_token = null,
         lease_expires_at = null
   where d.id = finish_contact_digest.digest_id
     and d.sent_at is null
     and d.lease_token = lease;
  if not found then
    return query select finish_contact_digest.digest_id, false;
    return;
  end if;
  if failure is null then
    update public.contact_notifications n
       set status = 'digested', last_error = null
     where n.digest_id = finish_contact_digest.digest_id and n.status = 'digest';
    get diagnostics count_sent = row_count;
    update public.contact_digests d set request_count = count_sent where d.id = finish_contact_digest.digest_id;
  end if;
  return query select finish_contact_digest.digest_id, true;
end;
$$;

create function public.send_contact_digest()
  returns void
  language plpgsql security definer
  set search_path = ''
as $$
begin
  if public.has_due_contact_digest() then
    perform public.post_to_notify_function('{"type": "DIGEST"}'::jsonb);
  end if;
end;
$$;

grant execute on function private.digest_waiting() to service_role;
grant execute on function public.has_due_contact_digest() to service_role;
grant execute on function public.claim_contact_digest(integer) to service_role;
grant execute on function public.finish_contact_digest(bigint, uuid, text, double precision) to service_role;

do $$
begin
  if pg_catalog.to_regprocedure('cron.schedule(text,text,text)') is null then
    raise notice 'pg_cron is not here: no digest job (the local backend runs its own).';
    return;
  end if;
  perform cron.schedule('notify-meeting-request-digest', '* * * * *', 'select public.send_contact_digest()');
end;
$$;
