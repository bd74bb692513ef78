/**
 * The functions for the embedded local backend (local-backend/notifications), which runs a
 * function's serve-locally.ts under Deno: it listens on 127.0.0.1 only, on NOTIFY_FUNCTION_PORT
 * (0 = any free port), prints the port it got, and ends when its parent closes stdin (so it never
 * outlives the backend). Not deployed: index.ts does not import it.
 */
import { handlerFromEnvironment } from "./handler.ts";

export async function serveLocally(name: string, handler: Deno.ServeHandler): Promise<never> {
  const server = Deno.serve(
    {
      hostname: "127.0.0.1",
      port: Number(Deno.env.get("NOTIFY_FUNCTION_PORT") ?? "0"),
      onListen: ({ port }) => console.log(`${name} listening on port ${port}`),
    },
    handler,
  );
  for await (const _chunk of Deno.stdin.readable) {
    // Nothing is read from stdin: it only tells us the parent is still there.
  }
  await server.shutdown();
  Deno.exit(0);
}

if (import.meta.main) {
  await serveLocally(
    "notify-meeting-request",
    handlerFromEnvironment((name) => Deno.env.get(name)),
  );
}
