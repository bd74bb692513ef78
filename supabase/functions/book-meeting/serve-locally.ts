/** book-meeting for the local backend, as notify-meeting-request/serve-locally.ts. Not deployed. */
import { serveLocally } from "../notify-meeting-request/serve-locally.ts";
import { bookingHandlerFromEnvironment } from "./handler.ts";

await serveLocally(
  "book-meeting",
  bookingHandlerFromEnvironment((name) => Deno.env.get(name)),
);
