/**
 * Serves a function: as Deno.serve does on a hosted project or, with SERVE_LOCALLY=1 (the
 * embedded local backend, local-backend/notifications), on 127.0.0.1 only, on a free port it
 * prints, until the parent closes stdin (so it never outlives the backend).
 */
export async function serve(
  name: string,
  fromEnvironment: (env: (name: string) => string | undefined) => Deno.ServeHandler,
): Promise<void> {
  const handler = fromEnvironment((variable) => Deno.env.get(variable));
  if (Deno.env.get("SERVE_LOCALLY") !== "1") {
    Deno.serve(handler);
    return;
  }
  const onListen = ({ port }: Deno.NetAddr) => console.log(`${name} listening on port ${port}`);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen }, handler);
  for await (const _chunk of Deno.stdin.readable) {
    // Nothing is read from stdin: it only tells us the parent is still there.
  }
  await server.shutdown();
  Deno.exit(0);
}
