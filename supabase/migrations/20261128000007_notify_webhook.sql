-- The hosted half of staff notifications (docs/notifications.md): where pg_net exists, each
-- request e-mailed one by one is posted to the Edge Function, and pg_cron has it retry what is
-- due every minute. Elsewhere the local backend plays both parts.

-- Posts to the function with the URL and shared secret from Vault (notify_meeting_request_url,
-- notify_meeting_request_secret); until both exist nothing is posted. Errors are only warnings.
create function public.post_to_notify_function(body jsonb)
  returns void
  language plpgsql security definer
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

-- Only what is e-mailed one by one is posted: a flood makes no function calls.
create function public.contacts_post_webhook()
  returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
begin
  if exists (select from public.contact_notifications n where n.contact_id = new.id and n.status = 'pending') then
    perform public.post_to_notify_function(public.contact_webhook_payload(new));
  end if;
  return null;
end;
$$;

create function public.retry_contact_notifications()
  returns void
  language plpgsql security definer
  set search_path = ''
as $$
begin
  if public.has_due_contact_notifications() then
    perform public.post_to_notify_function('{"type": "SWEEP"}'::jsonb);
  end if;
end;
$$;

-- pg_net and pg_cron where Supabase's docs put them, skipped where the server lacks them;
-- enabled later, run this block once in the SQL editor.
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
  perform cron.schedule('notify-meeting-request-retry', '* * * * *', 'select public.retry_contact_notifications()');
end;
$$;
