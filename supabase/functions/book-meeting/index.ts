/**
 * book-meeting: books, moves and cancels a meeting from the staff e-mail's link (the site's
 * /book/ page calls it; docs/booking.md). Deploy with `supabase functions deploy book-meeting`.
 */
import { serve } from "../notify-meeting-request/serve.ts";
import { bookingHandlerFromEnvironment } from "./handler.ts";

await serve("book-meeting", bookingHandlerFromEnvironment);
