/**
 * book-meeting: books, moves and cancels a meeting from the staff e-mail's link (the site's
 * /book/ page calls it; docs/booking.md). Deploy with `supabase functions deploy book-meeting`.
 */
import { bookingHandlerFromEnvironment } from "./handler.ts";

Deno.serve(bookingHandlerFromEnvironment((name) => Deno.env.get(name)));
