/**
 * notify-meeting-request: e-mails staff about each new meeting request (and optionally posts
 * to a chat webhook), the digest of held requests and the site report. Called by the Database
 * Webhook on INSERT into public.contacts and by the pg_cron jobs; see docs/notifications.md.
 * Deploy with `supabase functions deploy notify-meeting-request --no-verify-jwt` (it checks its
 * own shared secret instead).
 */
import { handlerFromEnvironment } from "./handler.ts";
import { serve } from "./serve.ts";

await serve("notify-meeting-request", handlerFromEnvironment);
