/** Every staff e-mail about a request links to the booking page; only the token's hash is stored. */
import assert from "node:assert/strict";

import { bookingLinks, sha256Hex } from "./booking-links.ts";
import { loadConfig } from "./config.ts";
import { createHandler } from "./handler.ts";
import { heldDigests } from "./payload.ts";
import {
  DIGEST_ROW,
  meetingRequest,
  memoryStore,
  readMail,
  SECRET,
  webhookBody,
} from "./test-support/harness.ts";
import { startReceiver } from "./test-support/servers.ts";

const LINK = /https:\/\/expo\.example\/book\/#([A-Za-z0-9_-]{43})\b/g;

async function setUp(digest?: boolean) {
  const receiver = await startReceiver();
  const stored: { contact_id: number; token_hash: string }[][] = [];
  const env: Record<string, string> = {
    NOTIFY_WEBHOOK_SECRET: SECRET,
    NOTIFY_EMAIL_TO: "sales@example-transit.com",
    NOTIFY_EMAIL_FROM: "noreply@example-transit.com",
    SMTP_HOST: "127.0.0.1",
    SMTP_PORT: String(receiver.port),
    SUPABASE_URL: "http://unused",
    SUPABASE_SERVICE_ROLE_KEY: "unused",
    SITE_URL: "https://expo.example/",
  };
  const loaded = loadConfig((name) => env[name]);
  assert.ok(loaded.ok);
  const rpc = (name: string, args: Record<string, unknown>) => {
    assert.equal(name, "issue_booking_links");
    stored.push(args.links as (typeof stored)[number]);
    return Promise.resolve([{ issued: 1 }]);
  };
  const handler = createHandler({
    config: loaded.config,
    store: memoryStore([meetingRequest(7)], digest ? heldDigests([DIGEST_ROW])[0] : undefined),
    bookingLinks: bookingLinks(loaded.config.siteUrl!, rpc),
    log: () => {},
  });
  /** Posts the call and gives the text of the e-mail it sent. */
  const post = async (body: unknown) => {
    await handler(
      new Request("http://function.local/", {
        method: "POST",
        headers: { "x-webhook-secret": SECRET },
        body: JSON.stringify(body),
      }),
    );
    return (await readMail(receiver.received.at(-1)!.raw)).text ?? "";
  };
  return { post, stored, [Symbol.asyncDispose]: receiver[Symbol.asyncDispose] };
}

Deno.test(
  "the one-by-one e-mail links to SITE_URL/book/#<token>; the database gets its SHA-256",
  async () => {
    await using setup = await setUp();
    const { post, stored } = setup;
    const text = await post(webhookBody(meetingRequest(7)));
    const tokens = [...text.matchAll(LINK)].map((match) => match[1]!);
    assert.equal(tokens.length, 1);
    assert.match(text, /\nBook a time: {3}https:\/\/expo\.example\/book\/#/);
    assert.deepEqual(stored, [[{ contact_id: 7, token_hash: await sha256Hex(tokens[0]!) }]]);
    assert.equal(Buffer.from(tokens[0]!, "base64url").length, 32);
  },
);

Deno.test("each request listed in a digest has its own link, stored in one call", async () => {
  await using setup = await setUp(true);
  const { post, stored } = setup;
  const text = await post({ type: "DIGEST" });
  const tokens = [...text.matchAll(LINK)].map((match) => match[1]!);
  assert.equal(tokens.length, DIGEST_ROW.requests.length);
  assert.equal(new Set(tokens).size, tokens.length);
  const hashes = await Promise.all(tokens.map(sha256Hex));
  const ids = DIGEST_ROW.requests.map((held) => held.id);
  assert.deepEqual(stored, [ids.map((id, i) => ({ contact_id: id, token_hash: hashes[i] }))]);

  assert.match(text, /\n {3}Request #31, .*\n {3}Book a time: https:\/\/expo\.example\/book\/#/);
});
