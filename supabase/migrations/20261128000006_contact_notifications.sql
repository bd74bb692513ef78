-- Staff notifications (docs/notifications.md): each request's delivery state, made in its insert's
-- transaction, leased and finished by the notify-meeting-request Edge Function as service_role.

create table public.contact_digests (
  id bigint generated always as identity primary key,
  created_at timestamptz not null default now(),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  lease_token uuid,
  lease_expires_at timestamptz,
  sent_at timestamptz,
  last_error text,
  request_count integer
);

comment on table public.contact_digests is
  'The digest e-mails of held (suspect) meeting requests: one row per e-mail, written by the notify-meeting-request Edge Function as service_role.';

grant select, insert, update, delete on table public.contact_digests to service_role;
alter table public.contact_digests enable row level security;

create table public.contact_notifications (
  contact_id bigint primary key references public.contacts (id) on delete cascade,
  -- pending: e-mailed one by one, until delivered; held: waiting for the page's proof until
  -- next_attempt_at; digest: waiting for the next digest; digested: listed in a sent digest;
  -- skipped: none is sent for it.
  status text not null default 'pending',
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  last_attempt_at timestamptz,
  notified_at timestamptz,
  last_error text,
  lease_token uuid,
  lease_expires_at timestamptz,
  -- 0 = page-verified, served first; 1 = everything else notified one by one (staff's inserts).
  priority smallint not null default 1,
  digest_id bigint references public.contact_digests (id),
  constraint contact_notifications_status check (status in ('pending', 'delivered', 'skipped', 'held', 'digest', 'digested')),
  constraint contact_notifications_delivered_at check ((status = 'delivered') = (notified_at is not null)),
  constraint contact_notifications_attempts check (attempts >= 0)
);

comment on table public.contact_notifications is
  'Whether staff were notified of each meeting request (written only by the notify-meeting-request Edge Function, as service_role).';

create index contact_notifications_due_idx
  on public.contact_notifications (next_attempt_at, contact_id)
  where status = 'pending';
create index contact_notifications_priority_due_idx
  on public.contact_notifications (priority, next_attempt_at, contact_id)
  where status = 'pending';
create index contact_notifications_digest_idx on public.contact_notifications (digest_id) where digest_id is not null;
create index contact_notifications_waiting_digest_idx
  on public.contact_notifications (next_attempt_at)
  where status in ('digest', 'held') and digest_id is null;

grant select, insert, update, delete on table public.contact_notifications to service_role;
alter table public.contact_notifications enable row level security;

-- The outbox row, by the screening's verdict and budget (as the owner: anon has no right on it).
create function public.contacts_queue_notification()
  returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
declare
  screening public.contact_screening;
begin
  select * into screening from public.contact_screening s where s.contact_id = new.id;
  insert into public.contact_notifications (contact_id, status, priority, next_attempt_at)
  values (
    new.id,
    case
      when screening.contact_id is null then 'pending'          -- staff's own insert: not screened
      when screening.budget = 'one-by-one' then 'pending'
      when screening.verdict = 'awaiting-proof' then 'held'
      else 'digest'
    end,
    case when screening.budget = 'one-by-one' then 0 else 1 end,
    -- A request whose proof was not ready at the tap waits for the page's confirmation.
    case
      when screening.verdict = 'awaiting-proof' then pg_catalog.now() + pg_catalog.make_interval(
        secs => (select s.hold_for_proof_seconds from private.screening_settings s))
      else pg_catalog.now()
    end
  );
  return null;
end;
$$;

create trigger contacts_30_queue_notification
  after insert on public.contacts
  for each row
  execute function public.contacts_queue_notification();

-- The body Supabase's Database Webhooks send for an INSERT, for the hosted trigger and the local
-- backend alike.
create function public.contact_webhook_payload(request public.contacts)
  returns jsonb
  language sql stable
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

-- The Edge Function's calls (service role). Each returns rows: PostgREST answers a JSON array.

-- Leases up to max_count due requests (request_id alone, if given), page-verified first: one
-- claimant each until the lease expires or is finished, so concurrent sweeps split the work.
create function public.claim_contact_notifications(
  request_id bigint default null,
  max_count integer default 10,
  lease_seconds integer default 120
)
  returns table (
    lease_token uuid, attempt integer,
    id bigint, created_at timestamptz, name text, email text, organization text, message text
  )
  language sql volatile
  set search_path = ''
as $$
  with due as (
    select n.contact_id
      from public.contact_notifications n
     where n.status = 'pending'
       and n.next_attempt_at <= pg_catalog.now()
       and (n.lease_expires_at is null or n.lease_expires_at <= pg_catalog.now())
       and (request_id is null or n.contact_id = request_id)
     order by n.priority, n.next_attempt_at, n.contact_id
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
    returning n.contact_id, n.lease_token, n.attempts, n.priority
  )
  select cl.lease_token, cl.attempts, c.id, c.created_at, c.name, c.email, c.organization, c.message
    from claimed cl
    join public.contacts c on c.id = cl.contact_id
   order by cl.priority, c.id;
$$;

-- Records the outcome of a claimed attempt: failure null = delivered (note: a non-fatal remark),
-- else retried in retry_in_seconds. Ignored (recorded = false) unless the caller holds the lease.
create function public.finish_contact_notification(
  request_id bigint,
  lease uuid,
  failure text default null,
  retry_in_seconds double precision default 60,
  note text default null
)
  -- Two columns, so that PostgREST answers [{"contact_id": …, "recorded": …}].
  returns table (contact_id bigint, recorded boolean)
  language sql volatile
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

-- Whether any notification is due, so an idle project makes no calls to the function.
create function public.has_due_contact_notifications()
  returns boolean
  language sql stable security definer
  set search_path = ''
as $$
  select exists (
    select from public.contact_notifications n
     where n.status = 'pending'
       and n.next_attempt_at <= pg_catalog.now()
       and (n.lease_expires_at is null or n.lease_expires_at <= pg_catalog.now())
  );
$$;

grant execute on function public.claim_contact_notifications(bigint, integer, integer) to service_role;
grant execute on function public.finish_contact_notification(bigint, uuid, text, double precision, text) to service_role;
