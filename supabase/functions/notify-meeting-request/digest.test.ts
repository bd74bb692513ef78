/**
 * The digest call: its e-mail (exact text), the row check, and the handler's DIGEST path with a
 * store that follows the SQL's rules (one digest leased at a time, a sent digest never again).
 * The SQL side (what is due, at most one per interval, marks) is tested in
 * local-backend/screening.test.ts.
 */
import assert from "node:assert/strict";

import { loadConfig, type NotifyConfig } from "./config.ts";
import type { DeliveryStore } from "./delivery-store.ts";
import { composeDigest, digestText, parseDigestRow, type DigestStore, type HeldDigest } from "./digest.ts";
import { createHandler, SECRET_HEADER } from "./handler.ts";
import { parseNotifyCall } from "./payload.ts";
import { sendMail, type Envelope, type SmtpSettings } from "./smtp.ts";
import { readMessage } from "./test-support/mail-reader.ts";
import { startSmtpReceiver } from "./test-support/smtp-receiver.ts";
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
  reasons: { "no page proof": 13, links: 12, "repeated-text": 10, "invalid page proof": 1, gibberish: 1 },
  samples: [
    {
      id: 12,
      created_at: "2026-11-24T23:02:05+00:00",
      name: "John Smith",
      organization: "Digital Agency",
      email: "promo0@spam-sender.example",
      message: "Boost your website traffic!\nVisit https://seo.example and http://links.example",
      truncated: false,
      signals: ["links", "repeated-text"],
      proof: "missing",
      copies: 12,
    },
    {
      id: 30,
      created_at: "2026-11-24T23:19:40+00:00",
      name: "Ann Lee",
      organization: "Metro",
      email: "ann@metro.example",
      message: "x".repeat(400),
      truncated: true,
      signals: [],
      proof: "pending",
      copies: 1,
    },
  ],
};

const EXPECTED_TEXT = `14 meeting requests were held back as suspect, from 5 network addresses,
between Tuesday, November 24, 2026 at 11:02:05 PM UTC
and Tuesday, November 24, 2026 at 11:19:40 PM UTC.
They are stored; none of them was e-mailed to you one by one.

Why they were held (a request can have several reasons):
  not sent through the site's page (no proof)  13
  several links                                12
  the same text as other requests              10
  random-looking words                          1
  a page proof that did not check out           1

2 samples, one per distinct text, the most repeated first:

1. John Smith (Digital Agency) <promo0@spam-sender.example>
   Request #12, Tuesday, November 24, 2026 at 11:02:05 PM UTC; this text 12 times
   Held for: not sent through the site's page (no proof); several links; the same text as other requests
     Boost your website traffic!
     Visit https://seo.example and http://links.example

2. Ann Lee (Metro) <ann@metro.example>
   Request #30, Tuesday, November 24, 2026 at 11:19:40 PM UTC
   Held for: the page never confirmed its proof
     ${"x".repeat(400)}
     […]

--
A real lead among them? Every held request is in the table editor's meeting_requests_overview
(suspect = true), or \`npm run requests\` on a local backend; reply to it from there.
Digest #4 (public.contact_digests). At most one digest is sent every 20 minutes.
`;

Deno.test("the digest e-mail: counts by reason, then one sample per distinct text, in plain words", () => {
  const digest = parseDigestRow(ROW);
  assert.equal(digestText(digest), EXPECTED_TEXT);
  const email = composeDigest(digest, { from: { name: "Expo site", address: "noreply@example-transit.com" }, to: [{ address: "sales@example-transit.com" }] }, new Date("2026-11-24T23:20:00Z"));
  const message = readMessage(email.raw);
  assert.equal(message.headers.get("subject"), "Held back: 14 suspect meeting requests (digest #4)");
  assert.equal(message.headers.get("message-id"), "<meeting-request-digest-4@example-transit.com>");
  assert.equal(message.headers.get("reply-to"), undefined);
  assert.equal(message.body, EXPECTED_TEXT);
  assert.deepEqual(email.recipients, ["sales@example-transit.com"]);
});

Deno.test("the digest e-mail names the configured interval and a single request in the singular", () => {
  const digest = parseDigestRow({ ...ROW, request_count: 1, client_count: 1, reasons: { "no page proof": 1 }, samples: [ROW.samples[0]] });
  const text = digestText(digest, "UTC", 60);
  assert.match(text, /^1 meeting request was held back as suspect, from 1 network address,\n/);
  assert.match(text, /\nThe requests:\n/);
  assert.match(text, /At most one digest is sent every 1 minute\.\n$/);
});

Deno.test("a claim row without a lease or with a broken date is refused", () => {
  assert.throws(() => parseDigestRow({ ...ROW, lease_token: null }), /unexpected row/);
  assert.throws(() => parseDigestRow({ ...ROW, first_at: "yesterday" }), /first_at/);
});

Deno.test("DIGEST is a call type; NOTIFY_DIGEST_MIN_INTERVAL_SECONDS is read and checked", () => {
  assert.deepEqual(parseNotifyCall({ type: "DIGEST" }), { ok: true, value: { kind: "digest" } });
  const env = (extra: Record<string, string>) => (name: string) =>
    ({
      NOTIFY_WEBHOOK_SECRET: SECRET,
      NOTIFY_EMAIL_TO: "sales@example-transit.com",
      NOTIFY_EMAIL_FROM: "noreply@example-transit.com",
      SMTP_HOST: "smtp.example.com",
      SUPABASE_URL: "https://ref.supabase.co",
      SUPABASE_SERVICE_ROLE_KEY: "key",
      ...extra,
    })[name];
  const plain = loadConfig(env({}));
  assert.equal(plain.ok && plain.config.digestMinIntervalSeconds, undefined);
  const local = loadConfig(env({ NOTIFY_DIGEST_MIN_INTERVAL_SECONDS: "60" }));
  assert.equal(local.ok && local.config.digestMinIntervalSeconds, 60);
  const wrong = loadConfig(env({ NOTIFY_DIGEST_MIN_INTERVAL_SECONDS: "soon" }));
  assert.equal(wrong.ok, false);
});

/** One held digest, leased like the SQL leases it; sent = never handed out again. */
function memoryDigests(): DigestStore & { outcomes: (string | undefined)[]; sent: boolean; intervals: (number | undefined)[] } {
  let lease: string | undefined;
  let attempt = 0;
  const store = {
    outcomes: [] as (string | undefined)[],
    sent: false,
    intervals: [] as (number | undefined)[],
    claim(minIntervalSeconds: number | undefined): Promise<HeldDigest | undefined> {
      store.intervals.push(minIntervalSeconds);
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

function config(smtpPort: number): NotifyConfig {
  return testConfig(SECRET, smtpPort, { reportTo: [{ address: "sales@example-transit.com" }], digestMinIntervalSeconds: 60 });
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

Deno.test("a DIGEST call sends the due digest once over SMTP and records it; the next call sends nothing", async () => {
  const receiver = startSmtpReceiver();
  const digests = memoryDigests();
  const handler = createHandler({ config: config(receiver.port), store: noDeliveries, digests, sendMail, postChatMessage: () => Promise.resolve(), log: () => {} });
  try {
    const first = await digestCall(handler);
    assert.equal(first.status, 200);
    assert.deepEqual(await first.json(), { sent: { id: 4, requests: 14 } });
    assert.deepEqual(await (await digestCall(handler)).json(), {});
    assert.equal(receiver.received.length, 1);
    assert.equal(readMessage(receiver.received[0]!.data).headers.get("subject"), "Held back: 14 suspect meeting requests (digest #4)");
    assert.deepEqual(digests.outcomes, [undefined]);
    assert.deepEqual(digests.intervals, [60, 60]);
  } finally {
    await receiver.close();
  }
});

Deno.test("SMTP down: the digest's failure is recorded with a back-off, and it is sent once when the server returns", async () => {
  const digests = memoryDigests();
  let up = false;
  const sent: Envelope[] = [];
  const flaky = (_settings: SmtpSettings, envelope: Envelope): Promise<string> => {
    if (!up) return Promise.reject(new Error("Cannot connect to SMTP server 127.0.0.1:2525"));
    sent.push(envelope);
    return Promise.resolve("250 OK");
  };
  const handler = createHandler({ config: config(1), store: noDeliveries, digests, sendMail: flaky, postChatMessage: () => Promise.resolve(), log: () => {} });
  const failed = await (await digestCall(handler)).json();
  assert.deepEqual(failed, { failed: { id: 4, attempt: 1, error: "Cannot connect to SMTP server 127.0.0.1:2525", retryInSeconds: 30 } });
  up = true;
  assert.deepEqual(await (await digestCall(handler)).json(), { sent: { id: 4, requests: 14 } });
  assert.deepEqual(await (await digestCall(handler)).json(), {});
  assert.equal(sent.length, 1);
  assert.deepEqual(digests.outcomes, ["Cannot connect to SMTP server 127.0.0.1:2525", undefined]);
});

Deno.test("without a digest store a DIGEST call is refused, not mistaken for a sweep", async () => {
  const handler = createHandler({ config: config(1), store: noDeliveries, sendMail, postChatMessage: () => Promise.resolve(), log: () => {} });
  assert.equal((await digestCall(handler)).status, 501);
});
