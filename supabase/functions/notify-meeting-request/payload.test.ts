import assert from "node:assert/strict";

import { parseMeetingRequest, parseNotifyCall } from "./payload.ts";

const record = {
  id: 42,
  created_at: "2026-11-23T17:05:01.123456+00:00",
  name: "Ada Lovelace",
  email: "ada@example.org",
  organization: "Metro Transit Authority",
  message: "Phone: 555\nFleet Size: 40",
};
const webhook = { type: "INSERT", table: "contacts", schema: "public", record, old_record: null };

Deno.test("a Database Webhook INSERT on public.contacts is accepted", () => {
  const parsed = parseNotifyCall(webhook);
  assert.ok(parsed.ok);
  assert.equal(parsed.value.kind, "insert");
  if (parsed.value.kind !== "insert") return;
  assert.equal(parsed.value.request.id, 42);
  assert.equal(parsed.value.request.createdAt.toISOString(), "2026-11-23T17:05:01.123Z");
  assert.equal(parsed.value.request.message, record.message);
});

Deno.test("the retry job's SWEEP is accepted", () => {
  assert.deepEqual(parseNotifyCall({ type: "SWEEP" }), { ok: true, value: { kind: "sweep" } });
});

const refused: [string, unknown, RegExp][] = [
  ["not an object", "INSERT", /JSON object/],
  ["an array", [webhook], /JSON object/],
  ["an UPDATE webhook", { ...webhook, type: "UPDATE" }, /type must be "INSERT"/],
  ["another table", { ...webhook, table: "users" }, /public\.contacts, not public\.users/],
  ["another schema", { ...webhook, schema: "auth" }, /public\.contacts/],
  ["no record", { ...webhook, record: null }, /record must be an object/],
  ["a string id", { ...webhook, record: { ...record, id: "42" } }, /record\.id/],
  ["a fractional id", { ...webhook, record: { ...record, id: 4.2 } }, /record\.id/],
  ["a bad timestamp", { ...webhook, record: { ...record, created_at: "yesterday" } }, /created_at/],
  [
    "a missing name",
    { ...webhook, record: { ...record, name: undefined } },
    /record\.name must be a string/,
  ],
  [
    "a blank organization",
    { ...webhook, record: { ...record, organization: " \n" } },
    /record\.organization is empty/,
  ],
  [
    "a name over 200 characters",
    { ...webhook, record: { ...record, name: "x".repeat(201) } },
    /longer than 200/,
  ],
  [
    "a message over 6000 characters",
    { ...webhook, record: { ...record, message: "x".repeat(6001) } },
    /longer than 6000/,
  ],
  [
    "an e-mail with a line break (header injection)",
    { ...webhook, record: { ...record, email: "a@b.co\r\nBcc: x@y.z" } },
    /not an e-mail/,
  ],
  [
    "an e-mail without a domain",
    { ...webhook, record: { ...record, email: "ada@" } },
    /not an e-mail/,
  ],
];

for (const [label, body, problem] of refused) {
  Deno.test(`refused: ${label}`, () => {
    const parsed = parseNotifyCall(body);
    assert.equal(parsed.ok, false);
    if (!parsed.ok) assert.match(parsed.problem, problem);
  });
}

Deno.test("limits count characters, not UTF-16 units: 200 emoji are a valid name", () => {
  assert.ok(parseMeetingRequest({ ...record, name: "🚌".repeat(200) }).ok);
});
