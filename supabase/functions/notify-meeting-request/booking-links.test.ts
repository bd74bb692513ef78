/** Every staff e-mail about a request links to the booking page; only the token's hash is stored. */
import assert from "node:assert/strict";

import { sha256Hex } from "./booking-links.ts";
import { heldDigests } from "./payload.ts";
import {
  DIGEST_ROW,
  meetingRequest,
  memoryStore,
  startFunction,
  webhookBody,
} from "./test-support/harness.ts";

const LINK = /https:\/\/expo\.example\/book\/#([A-Za-z0-9_-]{43})\b/g;

async function setUp(digest?: boolean) {
  const stored: { contact_id: number; token_hash: string }[][] = [];
  const rpc = (name: string, args: Record<string, unknown>) => {
    assert.equal(name, "issue_booking_links");
    stored.push(args.links as (typeof stored)[number]);
    return Promise.resolve([{ issued: 1 }]);
  };
  const digestRow = digest ? heldDigests([DIGEST_ROW])[0] : undefined;
  const store = memoryStore([meetingRequest(7)], digestRow);
  const fn = await startFunction(store, { SITE_URL: "https://expo.example/" }, rpc);
  /** Posts the call and gives the text of the e-mail it sent. */
  const post = async (body: unknown) => {
    await fn.post(body);
    return (await fn.mails()).at(-1)!.text ?? "";
  };
  return { post, stored, [Symbol.asyncDispose]: fn[Symbol.asyncDispose] };
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
    assert.deepEqual(stored, [[{ contact_id: 7, token_hash: sha256Hex(tokens[0]!) }]]);
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
  const hashes = tokens.map(sha256Hex);
  const ids = DIGEST_ROW.requests.map((held) => held.id);
  assert.deepEqual(stored, [ids.map((id, i) => ({ contact_id: id, token_hash: hashes[i] }))]);

  assert.match(text, /\n {3}Request #31, .*\n {3}Book a time: https:\/\/expo\.example\/book\/#/);
});
