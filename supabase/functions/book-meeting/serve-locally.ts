/**
 * The same function for the local backend (local-backend/notifications), as
 * notify-meeting-request/serve-locally.ts: 127.0.0.1, NOTIFY_FUNCTION_PORT (0 = any), the port
 * printed, and it ends when its parent closes stdin. Not deployed.
 */
import { bookingHandlerFromEnvironment } from "./handler.ts";

const server = Deno.serve(
  {
    hostname: "127.0.0.1",
    port: Number(Deno.env.get("NOTIFY_FUNCTION_PORT") ?? "0"),
    onListen: ({ port }) => console.log(`book-meeting listening on port ${port}`),
  },
  bookingHandlerFromEnvironment((name) => Deno.env.get(name)),
);

for await (const _chunk of Deno.stdin.readable) {
  // Nothing is read from stdin: it only tells us the parent is still there.
}
await server.shutdown();
Deno.exit(0);
