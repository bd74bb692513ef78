import assert from "node:assert/strict";

import { postChatMessage } from "./chat-webhook.ts";

async function withReceiver(
  status: number,
  test: (url: string, bodies: unknown[]) => Promise<void>,
): Promise<void> {
  const bodies: unknown[] = [];
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (request) => {
      bodies.push(await request.json());
      return new Response(status === 200 ? "ok" : "invalid_token", { status });
    },
  );
  try {
    await test(`http://127.0.0.1:${server.addr.port}/services/T000/B000/secret-part`, bodies);
  } finally {
    await server.shutdown();
  }
}

Deno.test("posts { text } as JSON to the incoming webhook", async () => {
  await withReceiver(200, async (url, bodies) => {
    await postChatMessage(url, "New meeting request: Ada");
    assert.deepEqual(bodies, [{ text: "New meeting request: Ada" }]);
  });
});

Deno.test(
  "an error answer fails with the status, naming the host but not the secret path",
  async () => {
    await withReceiver(403, async (url) => {
      await assert.rejects(postChatMessage(url, "x"), (error: Error) => {
        assert.match(
          error.message,
          /^chat webhook at 127\.0\.0\.1:\d+ answered HTTP 403 invalid_token$/,
        );
        assert.doesNotMatch(error.message, /secret-part/);
        return true;
      });
    });
  },
);
