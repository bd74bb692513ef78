import assert from "node:assert/strict";

import { claimedRequests, heldDigests, parseNotifyCall } from "./payload.ts";
import { DIGEST_ROW, meetingRequest, REPORT, webhookBody } from "./test-support/harness.ts";

const webhook = webhookBody(meetingRequest());
webhook.record.created_at = "2026-11-23T17:05:01.123456+00:00"; // as PostgreSQL writes it
const insert = (fields: Record<string, unknown>) => ({
  ...webhook,
  record: { ...webhook.record, ...fields },
});
const report = (fields: Record<string, unknown>) => ({
  type: "REPORT",
  kind: "daily",
  report: { ...REPORT, ...fields },
});

Deno.test("accepted: an INSERT webhook on public.contacts, SWEEP, DIGEST and REPORT", () => {
  const parsed = parseNotifyCall(webhook);
  assert.ok(parsed.ok && parsed.value.kind === "insert");
  assert.deepEqual(parsed.value.request, meetingRequest());
  assert.deepEqual(parseNotifyCall({ type: "SWEEP" }), { ok: true, value: { kind: "sweep" } });
  assert.deepEqual(parseNotifyCall({ type: "DIGEST" }), { ok: true, value: { kind: "digest" } });
  assert.deepEqual(parseNotifyCall({ type: "REPORT", kind: "weekly", report: REPORT }), {
    ok: true,
    value: { kind: "report", period: "weekly", report: REPORT },
  });
  // Limits count characters, not UTF-16 units: 200 emoji are a valid name.
  assert.ok(parseNotifyCall(insert({ name: "🚌".repeat(200) })).ok);
});

const refused: [string, unknown, RegExp][] = [
  ["not an object", "INSERT", /^the body must be a JSON object$/],
  ["an array", [webhook], /JSON object/],
  ["an UPDATE webhook", { ...webhook, type: "UPDATE" }, /^type must be "INSERT".* not "UPDATE"$/],
  ["another table", { ...webhook, table: "users" }, /public\.contacts, not public\.users$/],
  ["another schema", { ...webhook, schema: "auth" }, /public\.contacts, not auth\.contacts$/],
  ["no record", { ...webhook, record: null }, /^record must be an object$/],
  ["a string id", insert({ id: "42" }), /^record\.id must be a positive integer$/],
  ["a fractional id", insert({ id: 4.2 }), /^record\.id must be a positive integer$/],
  ["a bad timestamp", insert({ created_at: "yesterday" }), /^record\.created_at must be a/],
  ["a missing name", insert({ name: undefined }), /^record\.name must be a string$/],
  ["a blank organization", insert({ organization: " \n" }), /^record\.organization is empty$/],
  ["a name over 200 characters", insert({ name: "x".repeat(201) }), /longer than 200 char/],
  ["a message over 6000", insert({ message: "x".repeat(6001) }), /longer than 6000 char/],
  ["a line break in an e-mail", insert({ email: "a@b.co\r\nBcc: x@y.z" }), /not an e-mail/],
  ["an e-mail without a domain", insert({ email: "ada@" }), /^record\.email is not an e-mail/],
  ["a report period of hours", { ...report({}), kind: "hourly" }, /^kind must be "weekly"/],
  ["a report without a report", { type: "REPORT", kind: "daily" }, /^report must be an object$/],
  ["a report day not a date", report({ from: "16 Nov" }), /^report\.from must be a date/],
  [
    "a negative count",
    report({ totals: { ...REPORT.totals, views: -1 } }),
    /^report\.totals\.views must be a count$/,
  ],
  [
    "markup as a campaign tag",
    report({ campaigns: [{ ...REPORT.campaigns[0], source: "<b>x</b>" }] }),
    /^report\.campaigns\[0\]\.source is not a tag the database stores$/,
  ],
  [
    "a fractional count",
    report({ referrers: [{ domain: "a.com", views: 1.5 }] }),
    /^report\.referrers\[0\]\.views must be a count$/,
  ],
  ["days that are not a list", report({ days: "none" }), /^report\.days must be an array$/],
];

for (const [label, body, problem] of refused) {
  Deno.test(`refused: ${label}`, () => {
    const parsed = parseNotifyCall(body);
    assert.ok(!parsed.ok);
    assert.match(parsed.problem, problem);
  });
}

Deno.test("a claim's rows: checked, and one without a lease or with a broken date refused", () => {
  const claimed = { ...webhook.record, lease_token: "6f1c1f7e", attempt: 2 };
  assert.equal(claimedRequests([claimed])[0]?.attempt, 2);
  assert.throws(
    () => claimedRequests([{ ...claimed, lease_token: null }]),
    /the claim answered with an unexpected row \(\[0\]\.lease_token/,
  );
  assert.equal(heldDigests([DIGEST_ROW])[0]?.requests.length, 3);
  assert.throws(() => heldDigests([{ ...DIGEST_ROW, lease_token: null }]), /unexpected row/);
  assert.throws(() => heldDigests([{ ...DIGEST_ROW, first_at: "yesterday" }]), /first_at/);
});
