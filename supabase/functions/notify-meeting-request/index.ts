/**
 * notify-meeting-request: e-mails staff about each new meeting request (and optionally posts
 * to a chat webhook). Called by the Database Webhook on INSERT into public.contacts and by the
 * retry job; see docs/notifications.md. Deploy with `supabase functions deploy
 * notify-meeting-request --no-verify-jwt` (it checks its own shared secret instead).
 */
import { handlerFromEnvironment } from "./environment.ts";

Deno.serve(handlerFromEnvironment((name) => Deno.env.get(name)));
