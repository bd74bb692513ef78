/**
 * The digest call: its e-mail (exact text), the row check, and the handler's DIGEST path with a
 * store that follows the SQL's rules (one digest leased at a time, a sent digest never again).
 * The SQL side (what is due, at most one per interval, marks) is tested in
 * local-backend/screening-digest.test.ts.
 */
import assert from "node:assert/strict";

import { readMail } from "../../../local-backend/notifications/read-mail.ts";
import type { DeliveryStore } from "./delivery-store.ts";
import {
  composeDigest,
  digestSubject,
  digestText,
  parseDigestRow,
  type DigestStore,
  type HeldDigest,
} from "./digest.ts";
import { createHandler, SECRET_HEADER, type HandlerDependencies } from "./handler.ts";
import { parseNotifyCall } from "./payload.ts";
import { sendMail, type SmtpSettings } from "./smtp.ts";
import { messageBytes, type StaffEmail } from "./staff-email.ts";
import { startReceiver } from "./test-support/receiver.ts";
import { testConfig } from "./test-support/test-config.ts";

const SECRET = "s".repeat(40);

const ROW = {
  digest_id: 4,
  lease_token: "6f1c1f7e-2f4d-4b4c-9a8e-1d2c3b4a5f60",
  attempt: 1,
  request_count: 14,
  first_at: "2026-11-24T23:02:05.123456+00:00",
  last_at: "2026-11-24T23:19:40+00:00",
  client_count: 5,
  interval_seconds: 900,
  reasons: { "no page proof": 12, "over the address budget": 1, "page proof never confirmed": 1 },
  requests: [
    {
      id: 31,
      created_at: "2026-11-24T23:10:00+00:00",
      name: "Dana Whitfield",
      organization: "Valley Regional Transit",
      email: "dana@vrt.example",
      message: "Phone: Not provided\nChallenges/Questions: We run 40 paratransit vans.",
      truncated: false,
      held_for: ["over the address budget"],
      signals: [],
      same_address: 23,
      copies: 1,
    },
    {
      id: 30,
      created_at: "2026-11-24T23:19:40+00:00",
      name: "Ann Lee",
      organization: "Metro",
      email: "ann@metro.example",
      message: "x".repeat(400),
      truncated: true,
      held_for: ["page proof never confirmed"],
      signals: [],
      same_address: 0,
      copies: 1,
    },
    {
      id: 12,
      created_at: "2026-11-24T23:02:05+00:00",
      name: "John Smith",
      organization: "Digital Agency",
      email: "promo0@spam-sender.example",
      message: "Boost your website traffic!\nVisit https://seo.example and http://links.example",
      truncated: false,
      held_for: ["no page proof"],
      signals: ["links", "repeated-text"],
      same_address: 11,
      copies: 12,
    },
  ],
};

const LISTED = `1. Dana Whitfield (Valley Regional Transit) <dana@vrt.example>
   Request #31, Tuesday, November 24, 2026 at 11:10:00 PM UTC
   Held for: over its network address's budget of one-by-one e-mails
   Marks: 23 earlier requests from its address
     Phone: Not provided
     Challenges/Questions: We run 40 paratransit vans.

2. Ann Lee (Metro) <ann@metro.example>
   Request #30, Tuesday, November 24, 2026 at 11:19:40 PM UTC
   Held for: the page never confirmed its proof
     ${"x".repeat(400)}
     […]

3. John Smith (Digital Agency) <promo0@spam-sender.example>
   Request #12, Tuesday, November 24, 2026 at 11:02:05 PM UTC
   Held for: not sent through the site's page (no proof)
   Marks: several links; the same text as other requests; this text 12 times in this digest; 11 earlier requests from its address
     Boost your website traffic!
     Visit https://seo.example and http://links.example`;

const EXPECTED_TEXT = `14 meeting requests were held back, from 5 network addresses,
between Tuesday, November 24, 2026 at 11:02:05 PM UTC
and Tuesday, November 24, 2026 at 11:19:40 PM UTC.
They are stored; none of them was e-mailed to you one by one.

Why they were held (a request can have several reasons):
  not sent through the site's page (no proof)              12
  over its network address's budget of one-by-one e-mails   1
  the page never confirmed its proof                        1

The first 3, the likeliest real requests first:

${LISTED}

11 more requests are in this digest, not listed here. Every one, in the same order:
  SQL editor:  select * from meeting_requests_overview where digest = 4 order by digest_rank;
  locally:     npm run requests -- --digest 4

--
A real lead among them? Reply to it from here, or find it in the table editor's
meeting_requests_overview (digest, held_for), or \`npm run requests\` on a local backend.
Digest #4 (public.contact_digests). At most one digest is sent every 15 minutes.
`;

Deno.test(
  "the digest e-mail: counts by reason, then each held request, the likeliest real first, and where the rest are",
  async () => {
    const digest = parseDigestRow(ROW);
    assert.equal(digestText(digest), EXPECTED_TEXT);
    const email = composeDigest(
      digest,
      {
        from: { name: "Expo site", address: "noreply@example-transit.com" },
        to: [{ address: "sales@example-transit.com" }],
      },
      new Date("2026-11-24T23:20:00Z"),
    );
    const message = await readMail(await messageBytes(email));
    assert.equal(
      message.headers.get("subject"),
      "Held back: 14 meeting requests, 1 sent through the page (digest #4)",
    );
    assert.equal(
      message.headers.get("message-id"),
      "<meeting-request-digest-4@example-transit.com>",
    );
    assert.equal(message.headers.get("reply-to"), undefined);
    assert.equal(message.headers.get("auto-submitted"), "auto-generated");
    assert.equal(message.body, EXPECTED_TEXT);
    assert.equal(message.headers.get("to"), "sales@example-transit.com");
  },
);

Deno.test(
  "a digest that lists every request says so, names the interval, and a single request in the singular",
  () => {
    const one = {
      ...ROW,
      request_count: 1,
      client_count: 1,
      interval_seconds: 60,
      reasons: { "no page proof": 1 },
      requests: [ROW.requests[2]],
    };
    const text = digestText(parseDigestRow(one));
    assert.match(text, /^1 meeting request was held back, from 1 network address,\n/);
    assert.match(text, /\nIt, the likeliest real requests first:\n/);
    assert.doesNotMatch(text, /not listed here/);
    assert.match(text, /At most one digest is sent every 1 minute\.\n$/);
    assert.equal(digestSubject(parseDigestRow(one)), "Held back: 1 meeting request (digest #4)");
    const all = digestText(parseDigestRow({ ...ROW, request_count: 3 }));
    assert.match(all, /\nAll 3, the likeliest real requests first:\n/);
    assert.doesNotMatch(all, /not listed here/);
  },
);

Deno.test("a claim row without a lease or with a broken date is refused", () => {
  assert.throws(() => parseDigestRow({ ...ROW, lease_token: null }), /unexpected row/);
  assert.throws(() => parseDigestRow({ ...ROW, first_at: "yesterday" }), /first_at/);
});

Deno.test("DIGEST is a call type", () => {
  assert.deepEqual(parseNotifyCall({ type: "DIGEST" }), { ok: true, value: { kind: "digest" } });
});

/** One held digest, leased like the SQL leases it; sent = never handed out again. */
function memoryDigests(): DigestStore & { outcomes: (string | undefined)[]; sent: boolean } {
  let lease: string | undefined;
  let attempt = 0;
  const store = {
    outcomes: [] as (string | undefined)[],
    sent: false,
    claim(): Promise<HeldDigest | undefined> {
      if (store.sent || lease) return Promise.resolve(undefined);
      lease = crypto.randomUUID();
      attempt += 1;
      return Promise.resolve({ ...parseDigestRow(ROW), lease, attempt });
    },
    finish(_id: number, token: string, failure?: string): Promise<boolean> {
      if (token !== lease) return Promise.resolve(false);
      lease = undefined;
      store.outcomes.push(failure);
      if (failure === undefined) store.sent = true;
      return Promise.resolve(true);
    },
  };
  return store;
}

const noDeliveries: DeliveryStore = {
  claim: () => Promise.reject(new Error("a digest call must not claim notifications")),
  claimDue: () => Promise.reject(new Error("a digest call must not sweep")),
  finish: () => Promise.reject(new Error("unused")),
};

/** The handler with no delivery store, SMTP at `smtpPort`, the real mail client, no chat, no log; `deps` replaces any. */
function handlerFor(smtpPort: number, deps: Partial<HandlerDependencies> = {}) {
  const config = testConfig(SECRET, smtpPort, {
    reportTo: [{ address: "sales@example-transit.com" }],
  });
  return createHandler({
    config,
    store: noDeliveries,
    sendMail,
    postChatMessage: () => Promise.resolve(),
    log: () => {},
    ...deps,
  });
}

function digestCall(handler: (request: Request) => Promise<Response>): Promise<Response> {
  return handler(
    new Request("http://function.local/", {
      method: "POST",
      headers: { "Content-Type": "application/json", [SECRET_HEADER]: SECRET },
      body: '{"type":"DIGEST"}',
    }),
  );
}

Deno.test(
  "a DIGEST call sends the due digest once over SMTP and records it; the next call sends nothing",
  async () => {
    const receiver = await startReceiver();
    const digests = memoryDigests();
    const handler = handlerFor(receiver.port, { digests });
    try {
      const first = await digestCall(handler);
      assert.equal(first.status, 200);
      assert.deepEqual(await first.json(), { sent: { id: 4, requests: 14 } });
      assert.deepEqual(await (await digestCall(handler)).json(), {});
      assert.equal(receiver.received.length, 1);
      assert.equal(
        (await readMail(receiver.received[0]!.raw)).headers.get("subject"),
        "Held back: 14 meeting requests, 1 sent through the page (digest #4)",
      );
      assert.deepEqual(digests.outcomes, [undefined]);
    } finally {
      await receiver.close();
    }
  },
);

Deno.test(
  "SMTP down: the digest's failure is recorded with a back-off, and it is sent once when the server returns",
  async () => {
    const digests = memoryDigests();
    let up = false;
    const sent: StaffEmail[] = [];
    const flaky = (_settings: SmtpSettings, email: StaffEmail): Promise<string> => {
      if (!up) return Promise.reject(new Error("Cannot connect to SMTP server 127.0.0.1:2525"));
      sent.push(email);
      return Promise.resolve("250 OK");
    };
    const handler = handlerFor(1, { digests, sendMail: flaky });
    const failed = await (await digestCall(handler)).json();
    assert.deepEqual(failed, {
      failed: {
        id: 4,
        attempt: 1,
        error: "Cannot connect to SMTP server 127.0.0.1:2525",
        retryInSeconds: 30,
      },
    });
    up = true;
    assert.deepEqual(await (await digestCall(handler)).json(), { sent: { id: 4, requests: 14 } });
    assert.deepEqual(await (await digestCall(handler)).json(), {});
    assert.equal(sent.length, 1);
    assert.equal(sent[0]!.messageId, "<meeting-request-digest-4@example-transit.com>");
    assert.deepEqual(digests.outcomes, ["Cannot connect to SMTP server 127.0.0.1:2525", undefined]);
  },
);

Deno.test("without a digest store a DIGEST call is refused, not mistaken for a sweep", async () => {
  assert.equal((await digestCall(handlerFor(1))).status, 501);
});
