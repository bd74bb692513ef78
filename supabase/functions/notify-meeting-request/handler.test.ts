/** Calls of the function: the in-memory store (the SQL's rules), real SMTP and chat receivers. */
import assert from "node:assert/strict";

import { chatText } from "./compose.ts";
import { retryDelaySeconds } from "./handler.ts";
import { heldDigests } from "./payload.ts";
import { reportSubject } from "./report.ts";
import {
  DIGEST_ROW,
  meetingRequest,
  REPORT,
  memoryStore,
  SECRET,
  startFunction,
  unreachable,
  webhookBody,
} from "./test-support/harness.ts";

const webhook = webhookBody(meetingRequest(1));
const refused: [string, unknown, string | null, string, number][] = [
  ["without the secret", webhook, null, "POST", 401],
  ["with a wrong secret", webhook, "y".repeat(40), "POST", 401],
  ["with the secret cut short", webhook, SECRET.slice(0, -1), "POST", 401],
  ["with more than the secret", webhook, `${SECRET}x`, "POST", 401],
  ["with an empty secret", webhook, "", "POST", 401],
  ["as a GET", undefined, SECRET, "GET", 405],
  ["with a body that is not JSON", undefined, SECRET, "POST", 400],
  ["on another table", { ...webhook, table: "users" }, SECRET, "POST", 400],
];
/** What the handler records when the receiver is down. */
const smtpDown = (port: number) =>
  `SMTP server 127.0.0.1:${port} answered MAIL FROM with 451 Service not available, try later`;

for (const [label, body, secret, method, status] of refused) {
  Deno.test(`a call ${label} is refused (${status}) and sends nothing`, async () => {
    const store = memoryStore([meetingRequest(1)]);
    await using fn = await startFunction(store);
    const response = await fn.post(body, secret, method);
    assert.equal(response.status, status);
    if (status === 400 && body) assert.match((await response.json()).error, /public\.contacts/);
    assert.equal(store.rows.get(1)!.attempts, 0);
    assert.equal(fn.smtp.received.length, 0);
  });
}

Deno.test("a webhook e-mails staff once and catches up what is due (a lost webhook)", async () => {
  const store = memoryStore([meetingRequest(1), meetingRequest(2), meetingRequest(7)]);
  await using fn = await startFunction(store);
  // Only request 7's webhook arrives; 1 and 2 were lost. The same webhook again sends nothing.
  const first = await fn.call(webhookBody(meetingRequest(7)));
  assert.deepEqual([...first.delivered].sort(), [1, 2, 7]);
  const again = { delivered: [], failed: [], skipped: [7] };
  assert.deepEqual(await fn.call(webhookBody(meetingRequest(7))), again);
  const recipients = ["sales@example-transit.com", "ops@example-transit.com"];
  assert.equal(fn.smtp.received.length, 3);
  for (const mail of fn.smtp.received) assert.deepEqual(mail.to, recipients);
  assert.equal(store.rows.get(7)!.status, "delivered");
});

Deno.test("SMTP down: recorded with a back-off; a later sweep sends it once", async () => {
  const store = memoryStore([meetingRequest(3)]);
  await using fn = await startFunction(store);
  fn.smtp.down = true;
  const first = await fn.call(webhookBody(meetingRequest(3)));
  const error = smtpDown(fn.smtp.port);
  assert.deepEqual(first.failed, [{ id: 3, attempt: 1, error, retryInSeconds: 30 }]);
  assert.deepEqual(store.rows.get(3)!.outcomes, [{ failure: error, retryInSeconds: 30 }]);
  store.advance(30);
  assert.equal((await fn.call()).failed[0]?.retryInSeconds, 60);
  fn.smtp.down = false;
  store.advance(60);
  assert.deepEqual((await fn.call()).delivered, [3]);
  assert.equal(fn.smtp.received.length, 1);
});

/** A chat webhook (Slack style) on 127.0.0.1 that answers `status`; its URL has a secret path. */
function startChatReceiver(status = 200) {
  const bodies: unknown[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    bodies.push(await request.json());
    return new Response(status === 200 ? "ok" : "invalid_token", { status });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/services/T000/B000/secret-part`,
    bodies,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

// The chat post follows the e-mail; its failure is noted (naming the host, not the URL's secret
// path), and the e-mail is not sent again.
for (const status of [200, 403]) {
  Deno.test(`the chat webhook answering ${status}: noted, the e-mail sent once`, async () => {
    await using chat = startChatReceiver(status);
    const store = memoryStore([meetingRequest(5)]);
    await using fn = await startFunction(store, { NOTIFY_CHAT_WEBHOOK_URL: chat.url });
    assert.deepEqual((await fn.call(webhookBody(meetingRequest(5)))).delivered, [5]);
    await fn.call();
    assert.equal(fn.smtp.received.length, 1);
    assert.deepEqual(chat.bodies, [{ text: chatText(meetingRequest(5)) }]);
    const note = `E-mail sent; chat webhook at ${new URL(chat.url).host} answered HTTP 403 invalid_token`;
    assert.deepEqual(store.rows.get(5)!.outcomes, [status === 200 ? {} : { note }]);
  });
}

Deno.test("the delivery state out of reach: 503, nothing sent", async () => {
  await using fn = await startFunction(unreachable);
  assert.equal((await fn.post(webhook)).status, 503);
  assert.equal((await fn.post({ type: "DIGEST" })).status, 503);
  assert.equal(fn.smtp.received.length, 0);
});

Deno.test("a DIGEST: a failure backs off, then it is sent once; nothing swept", async () => {
  const store = memoryStore([meetingRequest(1)], heldDigests([DIGEST_ROW])[0]!);
  await using fn = await startFunction(store);
  fn.smtp.down = true;
  const error = smtpDown(fn.smtp.port);
  const failed = { id: 4, attempt: 1, error, retryInSeconds: 30 };
  assert.deepEqual(await fn.call({ type: "DIGEST" }), { failed });
  fn.smtp.down = false;
  assert.deepEqual(await fn.call({ type: "DIGEST" }), {}); // not due before its back-off is over
  store.advance(30);
  assert.deepEqual(await fn.call({ type: "DIGEST" }), { sent: { id: 4, requests: 14 } });
  assert.deepEqual(store.digest.outcomes, [{ failure: error, retryInSeconds: 30 }, {}]);
  assert.equal(fn.smtp.received.length, 1);
  assert.equal(store.rows.get(1)!.attempts, 0);
});

Deno.test("a REPORT is sent once to NOTIFY_REPORT_TO, without the delivery state", async () => {
  await using fn = await startFunction(unreachable);
  const response = await fn.post({ type: "REPORT", kind: "weekly", report: REPORT });
  assert.equal(response.status, 200);
  assert.deepEqual(await response.json(), { reported: true });
  assert.deepEqual(
    fn.smtp.received.map((mail) => mail.to),
    [["marketing@example-transit.com", "ceo@example-transit.com"]],
  );
  const [mail] = await fn.mails();
  assert.equal(mail!.headers.subject, reportSubject(REPORT, "weekly"));
});

Deno.test("back-off doubles from the base and stays at the most", () => {
  const policy = { baseSeconds: 30, maxSeconds: 1800 };
  assert.deepEqual(
    [1, 2, 3, 4, 5, 6, 7, 8, 50].map((attempt) => retryDelaySeconds(attempt, policy)),
    [30, 60, 120, 240, 480, 960, 1800, 1800, 1800],
  );
});
