/** The handler wired to the real world: settings from the environment, the REST store, SMTP, fetch. */
import { postChatMessage } from "./chat-webhook.ts";
import { loadConfig } from "./config.ts";
import { restDeliveryStore, restRpc } from "./delivery-store.ts";
import { restDigestStore } from "./digest.ts";
import { createHandler } from "./handler.ts";
import { sendMail } from "./smtp.ts";

export function handlerFromEnvironment(
  env: (name: string) => string | undefined,
): (request: Request) => Promise<Response> {
  const loaded = loadConfig(env);
  if (!loaded.ok) {
    console.error(`notify-meeting-request is not configured:\n  ${loaded.problems.join("\n  ")}`);
    // Requests stay pending (and visible as such) until the settings are fixed.
    return () =>
      Promise.resolve(
        new Response(JSON.stringify({ error: "not configured: see the function's logs" }), {
          status: 500,
        }),
      );
  }
  const { config } = loaded;
  return createHandler({
    config,
    store: restDeliveryStore(config.supabaseUrl, config.serviceKey),
    digests: restDigestStore(restRpc(config.supabaseUrl, config.serviceKey)),
    sendMail,
    postChatMessage,
  });
}
