/**
 * The handler with an in-memory store that follows the SQL functions' rules (leases, delivered
 * requests never claimed again) and a real SMTP receiver on 127.0.0.1. The same store
 * rules run in PostgreSQL in local-backend's tests.
 */
import assert from "node:assert/strict";

import { readMail } from "../../../local-backend/notifications/read-mail.ts";
import { postChatMessage } from "./chat-webhook.ts";
import type { NotifyConfig } from "./config.ts";
import type { ClaimedRequest, DeliveryStore, Outcome } from "./delivery-store.ts";
import {
  createHandler,
  SECRET_HEADER,
  secretMatches,
  type CallResult,
  type HandlerDependencies,
} from "./handler.ts";
import type { MeetingRequest } from "./payload.ts";
import { sendMail, type SmtpSettings } from "./smtp.ts";
import type { StaffEmail } from "./staff-email.ts";
import { startReceiver } from "./test-support/receiver.ts";
import { testConfig } from "./test-support/test-config.ts";

const SECRET = "x".repeat(40);

interface Row {
  request: MeetingRequest;
  status: "pending" | "delivered";
  attempts: number;
  lease?: string;
  /** Seconds on the store's clock from which a failed request is due again. */
  dueAt: number;
  outcomes: Outcome[];
}

function memoryStore(
  requests: MeetingRequest[],
): DeliveryStore & { rows: Map<number, Row>; advance(seconds: number): void } {
  let clock = 0;
  const rows = new Map(
    requests.map((request) => [
      request.id,
      { request, status: "pending", attempts: 0, dueAt: 0, outcomes: [] } as Row,
    ]),
  );
  const due = (row: Row) => row.status === "pending" && !row.lease && row.dueAt <= clock;
  const lease = (row: Row): ClaimedRequest => {
    row.lease = crypto.randomUUID();
    row.attempts += 1;
    return { lease: row.lease, attempt: row.attempts, request: row.request };
  };
  return {
    rows,
    advance(seconds) {
      clock += seconds;
    },
    claim(id) {
      const row = rows.get(id);
      return Promise.resolve(row && due(row) ? lease(row) : undefined);
    },
    claimDue(max) {
      return Promise.resolve([...rows.values()].filter(due).slice(0, max).map(lease));
    },
    finish(id, token, outcome) {
      const row = rows.get(id);
      if (!row || row.lease !== token) return Promise.resolve(false);
      row.lease = undefined;
      row.outcomes.push(outcome);
      if (outcome.failure === undefined) row.status = "delivered";
      else row.dueAt = clock + (outcome.retryInSeconds ?? 60);
      return Promise.resolve(true);
    },
  };
}

function meetingRequest(id: number): MeetingRequest {
  return {
    id,
    createdAt: new Date("2026-11-23T17:05:01Z"),
    name: `Visitor ${id}`,
    email: `visitor${id}@example.org`,
    organization: "Metro Transit",
    message: "Phone: Not provided",
  };
}

/** What a Database Webhook posts for the request's insert. */
function webhookBody(request: MeetingRequest): unknown {
  const record = { ...request, createdAt: undefined, created_at: request.createdAt.toISOString() };
  return { type: "INSERT", table: "contacts", schema: "public", record, old_record: null };
}

function config(smtpPort: number, chatWebhookUrl?: string): NotifyConfig {
  return testConfig(SECRET, smtpPort, {
    to: [{ address: "sales@example-transit.com" }, { address: "ops@example-transit.com" }],
    chatWebhookUrl,
  });
}

/** The handler on `store`, with SMTP on port 1 (nothing there), real mail and chat clients, no log; `deps` replaces any. */
function handlerFor(store: DeliveryStore, deps: Partial<HandlerDependencies> = {}) {
  return createHandler({
    config: config(1),
    store,
    sendMail,
    postChatMessage,
    log: () => {},
    ...deps,
  });
}

type Handler = ReturnType<typeof handlerFor>;

function call(handler: Handler, body: unknown, secret: string | null = SECRET, method = "POST") {
  const headers = new Headers({ "Content-Type": "application/json" });
  if (secret !== null) headers.set(SECRET_HEADER, secret);
  return handler(
    new Request("http://function.local/", {
      method,
      headers,
      body: method === "POST" ? JSON.stringify(body) : undefined,
    }),
  );
}

/** A call's result: for a webhook `body`, or a SWEEP (what the retry job posts). */
async function resultOf(handler: Handler, body: unknown = { type: "SWEEP" }): Promise<CallResult> {
  return (await call(handler, body)).json();
}

Deno.test("secretMatches: equal strings only", () => {
  assert.equal(secretMatches(SECRET, SECRET), true);
  for (const other of [null, "", SECRET.slice(0, -1), `${SECRET}x`])
    assert.equal(secretMatches(other, SECRET), false);
});

Deno.test(
  "calls without the shared secret, or not POST, or not a valid payload are refused and send nothing",
  async () => {
    const store = memoryStore([meetingRequest(1)]);
    let sent = 0;
    const handler = handlerFor(store, { sendMail: () => Promise.resolve(String(++sent)) });
    assert.equal((await call(handler, webhookBody(meetingRequest(1)), null)).status, 401);
    assert.equal((await call(handler, webhookBody(meetingRequest(1)), "y".repeat(40))).status, 401);
    assert.equal((await call(handler, webhookBody(meetingRequest(1)), SECRET, "GET")).status, 405);
    const invalid = await call(handler, {
      type: "INSERT",
      table: "users",
      schema: "public",
      record: {},
    });
    assert.equal(invalid.status, 400);
    assert.match((await invalid.json()).error, /public\.contacts/);
    assert.equal(sent, 0);
    assert.equal(store.rows.get(1)!.attempts, 0);
  },
);

Deno.test(
  "a webhook call e-mails staff once over SMTP; a repeated call for the same request sends nothing",
  async () => {
    const receiver = await startReceiver();
    const store = memoryStore([meetingRequest(7)]);
    const handler = handlerFor(store, { config: config(receiver.port) });
    try {
      const first = await call(handler, webhookBody(meetingRequest(7)));
      assert.equal(first.status, 200);
      assert.deepEqual(await first.json(), {
        delivered: [7],
        failed: [],
        skipped: [],
      } satisfies CallResult);
      assert.deepEqual(await resultOf(handler, webhookBody(meetingRequest(7))), {
        delivered: [],
        failed: [],
        skipped: [7],
      });
      assert.equal(receiver.received.length, 1);
      assert.deepEqual(receiver.received[0]!.to, [
        "sales@example-transit.com",
        "ops@example-transit.com",
      ]);
      const message = await readMail(receiver.received[0]!.raw);
      assert.equal(message.headers.get("subject"), "Meeting request: Visitor 7 (Metro Transit)");
      assert.equal(message.headers.get("reply-to"), "Visitor 7 <visitor7@example.org>");
      assert.equal(store.rows.get(7)!.status, "delivered");
    } finally {
      await receiver.close();
    }
  },
);

Deno.test(
  "SMTP down: the failure is recorded with a back-off, and a later sweep delivers it once",
  async () => {
    const store = memoryStore([meetingRequest(3)]);
    let smtpUp = false;
    const delivered: StaffEmail[] = [];
    const attempts: StaffEmail[] = [];
    const flakySend = (_settings: SmtpSettings, email: StaffEmail): Promise<string> => {
      attempts.push(email);
      if (!smtpUp)
        return Promise.reject(
          new Error("Cannot connect to SMTP server 127.0.0.1:2525: Connection refused"),
        );
      delivered.push(email);
      return Promise.resolve("250 OK");
    };
    const handler = handlerFor(store, { sendMail: flakySend });
    const first = await resultOf(handler, webhookBody(meetingRequest(3)));
    assert.deepEqual(first.failed, [
      {
        id: 3,
        attempt: 1,
        error: "Cannot connect to SMTP server 127.0.0.1:2525: Connection refused",
        retryInSeconds: 30,
      },
    ]);
    assert.deepEqual(store.rows.get(3)!.outcomes, [
      {
        failure: "Cannot connect to SMTP server 127.0.0.1:2525: Connection refused",
        retryInSeconds: 30,
      },
    ]);
    // Not due before its back-off is over.
    assert.deepEqual((await resultOf(handler)).failed, []);
    store.advance(30);
    assert.equal((await resultOf(handler)).failed[0]?.retryInSeconds, 60);
    smtpUp = true;
    store.advance(60);
    assert.deepEqual((await resultOf(handler)).delivered, [3]);
    store.advance(3600);
    assert.deepEqual((await resultOf(handler)).delivered, []);
    assert.equal(delivered.length, 1);
    assert.equal(store.rows.get(3)!.attempts, 3);
    assert.equal(attempts.length, 3);
    // Every attempt carries the same Message-ID (meeting-request-<id>-<created at>).
    assert.deepEqual(
      new Set(attempts.map((email) => email.messageId)),
      new Set([`<meeting-request-3-${Date.UTC(2026, 10, 23, 17, 5, 1)}@example-transit.com>`]),
    );
  },
);

Deno.test(
  "every call also retries what is due, so a lost webhook is caught up by the next call",
  async () => {
    const store = memoryStore([meetingRequest(1), meetingRequest(2), meetingRequest(3)]);
    const sent: string[] = [];
    const handler = handlerFor(store, {
      sendMail: (_settings, email) => {
        sent.push(email.subject);
        return Promise.resolve("250 OK");
      },
    });
    // Only request 3's webhook arrives; 1 and 2 were lost.
    const result = await resultOf(handler, webhookBody(meetingRequest(3)));
    assert.deepEqual([...result.delivered].sort(), [1, 2, 3]);
    assert.equal(sent.length, 3);
  },
);

Deno.test(
  "the chat webhook is posted after the e-mail; its failure is noted, the e-mail is not resent",
  async () => {
    const store = memoryStore([meetingRequest(5)]);
    let mails = 0;
    const chats: string[] = [];
    const handler = handlerFor(store, {
      config: config(1, "https://hooks.example.com/services/x"),
      sendMail: () => Promise.resolve(String(++mails)),
      postChatMessage: (_url, text) => {
        chats.push(text);
        return Promise.reject(new Error("chat webhook at hooks.example.com answered HTTP 500"));
      },
    });
    const result = await resultOf(handler, webhookBody(meetingRequest(5)));
    assert.deepEqual(result.delivered, [5]);
    assert.match(chats[0]!, /^New meeting request: Visitor 5 \(Metro Transit\)/);
    assert.deepEqual(store.rows.get(5)!.outcomes, [
      { note: "E-mail sent; chat webhook at hooks.example.com answered HTTP 500" },
    ]);
    await call(handler, { type: "SWEEP" });
    assert.equal(mails, 1);
  },
);

Deno.test("the delivery state out of reach: 503, nothing sent", async () => {
  let sent = 0;
  const broken: DeliveryStore = {
    claim: () => Promise.reject(new Error("database API not reached")),
    claimDue: () => Promise.reject(new Error("database API not reached")),
    finish: () => Promise.resolve(false),
  };
  const handler = handlerFor(broken, { sendMail: () => Promise.resolve(String(++sent)) });
  const response = await call(handler, webhookBody(meetingRequest(1)));
  assert.equal(response.status, 503);
  assert.equal(sent, 0);
});
