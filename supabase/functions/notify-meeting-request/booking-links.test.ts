/**
 * Each request in a staff e-mail gets its own link; only the token's hash is stored. The
 * one-by-one e-mail's link is followed to a booking in e2e/tests/booking.spec.ts.
 */
import assert from "node:assert/strict";

import { sha256Hex } from "./booking-links.ts";
import { heldDigests } from "./payload.ts";
import { DIGEST_ROW, memoryStore, startFunction } from "./test-support/harness.ts";

const LINK = /\n {3}Book a time: https:\/\/expo\.example\/book\/#([A-Za-z0-9_-]{43})\n/g;

Deno.test(
  "each request listed in a digest has its own link, its SHA-256 stored in one call",
  async () => {
    const stored: unknown[] = [];
    const rpc = (name: string, args: Record<string, unknown>) => {
      assert.equal(name, "issue_booking_links");
      stored.push(args.links);
      return Promise.resolve([{ issued: 1 }]);
    };
    const store = memoryStore([], heldDigests([DIGEST_ROW])[0]);
    await using fn = await startFunction(store, { SITE_URL: "https://expo.example/" }, rpc);
    await fn.post({ type: "DIGEST" });
    const text = (await fn.mails()).at(-1)!.text!;
    const tokens = [...text.matchAll(LINK)].map((match) => match[1]!);
    assert.equal(new Set(tokens).size, DIGEST_ROW.requests.length);
    const ids = DIGEST_ROW.requests.map((held) => held.id);
    const links = ids.map((id, i) => ({ contact_id: id, token_hash: sha256Hex(tokens[i]!) }));
    assert.deepEqual(stored, [links]);
  },
);
