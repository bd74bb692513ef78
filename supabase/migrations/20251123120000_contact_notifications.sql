-- Staff notifications for meeting requests (docs/notifications.md explains the whole design).
--
-- Every row inserted into public.contacts gets, in the same transaction, a row in
-- public.contact_notifications: the request's delivery state (pending or delivered, attempts,
-- last error, next attempt). The Edge Function supabase/functions/notify-meeting-request
-- delivers the e-mail and records the outcome through the three functions below, with the
-- service role. Because the state is created atomically with the request, a request whose
-- notification was never attempted (webhook lost, function down) is still "pending" and is
-- picked up by the next retry scan: nothing is silently missed.
--
-- Exactly-once towards staff, as far as a database can promise it: a notification is sent
-- only under a lease (claim_…: one claimant at a time per request, for lease_seconds), and a
-- delivered request can never be claimed again. The only window for a duplicate is an SMTP
-- server that accepted the message while the function died before recording it; the lease
-- then expires and the e-mail is sent again (with the same Message-ID, which mail clients
-- use to fold duplicates).
--
-- Where Supabase's webhook machinery exists (pg_net, Vault; pg_cron for the retries) the
-- second half of this file wires the INSERT webhook and a retry job every minute. Elsewhere
-- (the embedded PGlite backend, a plain PostgreSQL) that half is a no-op; the local backend
-- then posts the same payload (public.contact_webhook_payload) to the same function itself.
--
-- Visitors (anon) gain nothing: no privilege on the new table, view or functions.

create table public.contact_notifications (
  contact_id bigint primary key references public.contacts (id) on delete cascade,
  -- pending: not yet delivered (retried); delivered: staff were e-mailed; skipped: the
  -- request was stored before notifications existed, so none is sent for it.
  status text not null default 'pending',
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  last_attempt_at timestamptz,
  notified_at timestamptz,
  last_error text,
  lease_token uuid,
  lease_expires_at timestamptz,
  constraint contact_notifications_status check (status in ('pending', 'delivered', 'skipped')),
  constraint contact_notifications_delivered_at check ((status = 'delivered') = (notified_at is not null)),
  constraint contact_notifications_attempts check (attempts >= 0)
);

comment on table public.contact_notifications is
  'Whether staff were notified of each meeting request (written only by the notify-meeting-request Edge Function, as service_role).';

create index contact_notifications_due_idx
  on public.contact_notifications (next_attempt_at, contact_id)
  where status = 'pending';

revoke all on table public.contact_notifications from anon, authenticated;
grant select, insert, update, delete on table public.contact_notifications to service_role;

alter table public.contact_notifications enable row level security;

create policy "Service role manages notification state"
  on public.contact_notifications for all to service_role
  using (true) with check (true);

-- Requests stored before this migration were seen in the dashboard; do not e-mail them all now.
insert into public.contact_notifications (contact_id, status, last_error)
  select id, 'skipped', 'stored before staff notifications were set up' from public.contacts;


-- What staff look at: each request with its notification state, newest first (Table Editor →
-- meeting_requests_overview). security_invoker: readers need their own rights on both tables.
create view public.meeting_requests_overview
  with (security_invoker = true)
as
  select c.id,
         c.created_at,
         c.name,
         c.organization,
         c.email,
         n.status as notification,
         n.notified_at,
         n.attempts as notification_attempts,
         n.last_error as notification_error,
         case when n.status = 'pending' then n.next_attempt_at end as next_attempt_at,
         c.message
    from public.contacts c
    left join public.contact_notifications n on n.contact_id = c.id
   order by c.created_at desc, c.id desc;

revoke all on table public.meeting_requests_overview from anon, authenticated;
grant select on table public.meeting_requests_overview to service_role;


-- The outbox row, in the inserting transaction. SECURITY DEFINER: anon has no right on the table.
create function public.contacts_queue_notification()
  returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
begin
  insert into public.contact_notifications (contact_id) values (new.id);
  return null;
end;
$$;

revoke all on function public.contacts_queue_notification() from public, anon, authenticated;

create trigger contacts_30_queue_notification
  after insert on public.contacts
  for each row
  execute function public.contacts_queue_notification();


-- The Database Webhook body Supabase sends for an INSERT (supabase_functions.http_request's
-- shape). One definition for the hosted trigger and the local backend.
create function public.contact_webhook_payload(request public.contacts)
  returns jsonb
  language sql
  stable
  set search_path = ''
as $$
  select pg_catalog.jsonb_build_object(
    'type', 'INSERT',
    'table', 'contacts',
    'schema', 'public',
    'record', pg_catalog.to_jsonb(request),
    'old_record', null
  );
$$;

revoke all on function public.contact_webhook_payload(public.contacts) from public, anon, authenticated;


-- The three calls the Edge Function makes (PostgREST RPC, service role). Each returns rows so
-- that PostgREST and the local backend answer with the same JSON array.

-- Claims one request for delivery: at most one claimant until the lease expires or is finished.
create function public.claim_contact_notification(request_id bigint, lease_seconds integer default 120)
  returns table (
    lease_token uuid, attempt integer,
    id bigint, created_at timestamptz, name text, email text, organization text, message text
  )
  language sql
  volatile
  set search_path = ''
as $$
  with claimed as (
    update public.contact_notifications n
       set lease_token = gen_random_uuid(),
           lease_expires_at = pg_catalog.now() + pg_catalog.make_interval(secs => lease_seconds),
           attempts = n.attempts + 1,
           last_attempt_at = pg_catalog.now()
     where n.contact_id = request_id
       and n.status = 'pending'
       and n.next_attempt_at <= pg_catalog.now()
       and (n.lease_expires_at is null or n.lease_expires_at <= pg_catalog.now())
    returning n.contact_id, n.lease_token, n.attempts
  )
  select cl.lease_token, cl.attempts, c.id, c.created_at, c.name, c.email, c.organization, c.message
    from claimed cl
    join public.contacts c on c.id = cl.contact_id;
$$;

-- Claims up to max_count requests that are due (never attempted, or their back-off is over).
-- SKIP LOCKED: concurrent scans split the work instead of waiting for each other.
create function public.claim_due_contact_notifications(max_count integer default 10, lease_seconds integer default 120)
  returns table (
    lease_token uuid, attempt integer,
    id bigint, created_at timestamptz, name text, email text, organization text, message text
  )
  language sql
  volatile
  set search_path = ''
as $$
  with due as (
    select n.contact_id
      from public.contact_notifications n
     where n.status = 'pending'
       and n.next_attempt_at <= pg_catalog.now()
       and (n.lease_expires_at is null or n.lease_expires_at <= pg_catalog.now())
     order by n.next_attempt_at, n.contact_id
     limit max_count
     for update skip locked
  ), claimed as (
    update public.contact_notifications n
       set lease_token = gen_random_uuid(),
           lease_expires_at = pg_catalog.now() + pg_catalog.make_interval(secs => lease_seconds),
           attempts = n.attempts + 1,
           last_attempt_at = pg_catalog.now()
      from due
     where n.contact_id = due.contact_id
    returning n.contact_id, n.lease_token, n.attempts
  )
  select cl.lease_token, cl.attempts, c.id, c.created_at, c.name, c.email, c.organization, c.message
    from claimed cl
    join public.contacts c on c.id = cl.contact_id
   order by c.id;
$$;

-- Records the outcome of a claimed attempt. failure null = delivered (note: a non-fatal
-- remark such as a chat webhook that failed); otherwise the next attempt is retry_in_seconds
-- away. Ignored (recorded = false) unless the caller still holds the lease.
create function public.finish_contact_notification(
  request_id bigint,
  lease uuid,
  failure text default null,
  retry_in_seconds double precision default 60,
  note text default null
)
  -- Two columns, so that the result is a row type (PostgREST answers [{"contact_id": …, "recorded": …}]).
  returns table (contact_id bigint, recorded boolean)
  language sql
  volatile
  set search_path = ''
as $$
  with finished as (
    update public.contact_notifications n
       set status = case when failure is null then 'delivered' else 'pending' end,
           notified_at = case when failure is null then pg_catalog.now() end,
           last_error = pg_catalog.left(coalesce(failure, note), 2000),
           next_attempt_at = case
             when failure is null then n.next_attempt_at
             else pg_catalog.now() + pg_catalog.make_interval(secs => greatest(retry_in_seconds, 0))
           end,
           lease_token = null,
           lease_expires_at = null
     where n.contact_id = request_id
       and n.status = 'pending'
       and n.lease_token = lease
    returning 1
  )
  select request_id, exists (select from finished);
$$;

revoke all on function public.claim_contact_notification(bigint, integer) from public, anon, authenticated;
revoke all on function public.claim_due_contact_notifications(integer, integer) from public, anon, authenticated;
revoke all on function public.finish_contact_notification(bigint, uuid, text, double precision, text) from public, anon, authenticated;
grant execute on function public.claim_contact_notification(bigint, integer) to service_role;
grant execute on function public.claim_due_contact_notifications(integer, integer) to service_role;
grant execute on function public.finish_contact_notification(bigint, uuid, text, double precision, text) to service_role;


-- ---------------------------------------------------------------------------------------------
-- Hosted projects: the webhook and the retry job.
--
-- The function's URL and the shared secret are per project, so they are read at run time from
-- Supabase Vault (names below), not written here:
--   select vault.create_secret('https://<ref>.supabase.co/functions/v1/notify-meeting-request', 'notify_meeting_request_url');
--   select vault.create_secret('<the NOTIFY_WEBHOOK_SECRET value>', 'notify_meeting_request_secret');
-- Until both exist nothing is posted, and requests simply stay pending (visible as such).
-- pg_net queues the request and sends it after the transaction commits: the visitor's insert
-- never waits for the function, and any error here is turned into a warning, never a failure.
create function public.post_to_notify_function(body jsonb)
  returns void
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  function_url text;
  shared_secret text;
begin
  select decrypted_secret into function_url from vault.decrypted_secrets where name = 'notify_meeting_request_url';
  select decrypted_secret into shared_secret from vault.decrypted_secrets where name = 'notify_meeting_request_secret';
  if function_url is null or shared_secret is null then
    raise warning 'notify-meeting-request: Vault secrets notify_meeting_request_url / notify_meeting_request_secret are not set; nothing posted';
    return;
  end if;
  perform net.http_post(
    url := function_url,
    body := body,
    headers := pg_catalog.jsonb_build_object('Content-Type', 'application/json', 'X-Webhook-Secret', shared_secret),
    timeout_milliseconds := 30000
  );
exception when others then
  raise warning 'notify-meeting-request: webhook not queued: %', sqlerrm;
end;
$$;

create function public.contacts_post_webhook()
  returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
begin
  perform public.post_to_notify_function(public.contact_webhook_payload(new));
  return null;
end;
$$;

-- Whether any notification is due for an attempt (the retry job and the local backend ask this
-- before calling the function, so an idle project makes no calls).
create function public.has_due_contact_notifications()
  returns boolean
  language sql
  stable
  security definer
  set search_path = ''
as $$
  select exists (
    select from public.contact_notifications n
     where n.status = 'pending'
       and n.next_attempt_at <= pg_catalog.now()
       and (n.lease_expires_at is null or n.lease_expires_at <= pg_catalog.now())
  );
$$;

-- Called every minute by pg_cron: asks the function to retry what is due, only when something is.
create function public.retry_contact_notifications()
  returns void
  language plpgsql
  security definer
  set search_path = ''
as $$
begin
  if public.has_due_contact_notifications() then
    perform public.post_to_notify_function('{"type": "SWEEP"}'::jsonb);
  end if;
end;
$$;

revoke all on function public.post_to_notify_function(jsonb) from public, anon, authenticated;
revoke all on function public.contacts_post_webhook() from public, anon, authenticated;
revoke all on function public.retry_contact_notifications() from public, anon, authenticated;
revoke all on function public.has_due_contact_notifications() from public, anon, authenticated;

do $$
begin
  if not exists (select from pg_catalog.pg_available_extensions where name = 'pg_net') then
    raise notice 'pg_net is not available here: no webhook trigger (the local backend notifies by itself).';
    return;
  end if;
  create extension if not exists pg_net with schema extensions;
  create trigger contacts_40_notify_staff
    after insert on public.contacts
    for each row
    execute function public.contacts_post_webhook();

  if not exists (select from pg_catalog.pg_available_extensions where name = 'pg_cron') then
    raise notice 'pg_cron is not available here: undelivered notifications are retried on the next webhook call only.';
    return;
  end if;
  create extension if not exists pg_cron with schema pg_catalog;
  -- cron.schedule with an existing job name replaces that job (pg_cron 1.4+).
  perform cron.schedule('notify-meeting-request-retry', '* * * * *', 'select public.retry_contact_notifications()');
end;
$$;
