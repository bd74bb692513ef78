import assert from "node:assert/strict";

import { readMail } from "../../../local-backend/notifications/read-mail.ts";
import { chatText, composeNotification } from "./compose.ts";
import type { MeetingRequest } from "./payload.ts";
import { messageBytes, mimeMessage, type StaffEmail } from "./staff-email.ts";

const settings = {
  from: { name: "Expo website", address: "noreply@example-transit.com" },
  to: [
    { name: "Sales", address: "sales@example-transit.com" },
    { address: "ops@example-transit.com" },
  ],
};
const sentAt = new Date("2026-11-23T17:06:00Z");

/** The message as sent (raw, CRLF) and as a mail program reads it. */
async function sent(email: StaffEmail) {
  const raw = new TextDecoder().decode(await messageBytes(email));
  return { raw, ...(await readMail(raw)) };
}

function request(overrides: Partial<MeetingRequest> = {}): MeetingRequest {
  return {
    id: 42,
    createdAt: new Date("2026-11-23T17:05:01.123Z"),
    name: "Ada Lovelace",
    email: "ada@example.org",
    organization: "Metro Transit Authority",
    message: [
      "Phone: +1 555 0100",
      "Fleet Size: 40 vehicles",
      "Products of Interest: MobilityDR (Microtransit Platform), OptiRun (Scheduling Optimization)",
      "Preferred Meeting Time: Day 2 - Morning",
      "Challenges/Questions: None provided",
    ].join("\n"),
    ...overrides,
  };
}

Deno.test(
  "the e-mail: subject, addresses, Reply-To, the four fields and the time received",
  async () => {
    const email = composeNotification(request(), settings, sentAt);
    const message = await sent(email);
    assert.equal(
      message.headers.get("subject"),
      "Meeting request: Ada Lovelace (Metro Transit Authority)",
    );
    assert.equal(message.headers.get("from"), "Expo website <noreply@example-transit.com>");
    assert.equal(
      message.headers.get("to"),
      "Sales <sales@example-transit.com>, ops@example-transit.com",
    );
    assert.equal(message.headers.get("reply-to"), "Ada Lovelace <ada@example.org>");
    assert.equal(message.headers.get("date"), "Mon, 23 Nov 2026 17:06:00 +0000");
    assert.equal(
      message.headers.get("message-id"),
      `<meeting-request-42-${Date.UTC(2026, 10, 23, 17, 5, 1, 123)}@example-transit.com>`,
    );
    assert.equal(message.headers.get("content-type"), "text/plain; charset=utf-8");
    assert.equal(message.headers.get("auto-submitted"), "auto-generated");
    assert.deepEqual(mimeMessage(email).getEnvelope(), {
      from: "noreply@example-transit.com",
      to: ["sales@example-transit.com", "ops@example-transit.com"],
    });
    // A retry an hour later: another Date, the same Message-ID, so mail clients fold a rare duplicate.
    const retried = await sent(
      composeNotification(request(), settings, new Date(sentAt.getTime() + 3_600_000)),
    );
    assert.equal(retried.headers.get("message-id"), message.headers.get("message-id"));
    assert.notEqual(retried.headers.get("date"), message.headers.get("date"));
    assert.equal(
      message.body,
      [
        "New meeting request from the website.",
        "",
        "Name:          Ada Lovelace",
        "Organization:  Metro Transit Authority",
        "E-mail:        ada@example.org",
        "Received:      Monday, November 23, 2026 at 5:05:01 PM UTC",
        "",
        "Message:",
        "  Phone: +1 555 0100",
        "  Fleet Size: 40 vehicles",
        "  Products of Interest: MobilityDR (Microtransit Platform), OptiRun (Scheduling Optimization)",
        "  Preferred Meeting Time: Day 2 - Morning",
        "  Challenges/Questions: None provided",
        "",
        "--",
        "Reply to this e-mail to answer Ada Lovelace directly.",
        "Meeting request #42 (public.contacts).",
        "",
      ].join("\n"),
    );
  },
);

Deno.test("the time received in the configured time zone", () => {
  const email = composeNotification(
    request(),
    { ...settings, timeZone: "America/Chicago" },
    sentAt,
  );
  assert.match(email.text, /Received: {6}Monday, November 23, 2026 at 11:05:01 AM CST/);
});

Deno.test(
  "non-Latin names and organizations: encoded words in headers, exact text in the body",
  async () => {
    const name = "東京都交通局 山田 太郎";
    const organization = "שלום תחבורה — مرحبا بالعالم · Zoë Saldaña-Ñúñez, Łódź";
    const message = await sent(
      composeNotification(request({ name, organization }), settings, sentAt),
    );
    assert.equal(message.headers.get("subject"), `Meeting request: ${name} (${organization})`);
    assert.equal(message.headers.get("reply-to"), `${name} <ada@example.org>`);
    assert.match(message.body, new RegExp(`Name: {10}${name}\n`));
    assert.match(message.body, new RegExp(`Organization: {2}${organization}\n`));
    // The wire format stays ASCII with lines RFC 5322 allows, the subject in RFC 2047 encoded words.
    assert.match(message.raw, /^[\x20-\x7e\r\n]*$/);
    assert.match(message.raw, /^Subject: =\?UTF-8\?[BQ]\?/m);
    for (const line of message.raw.split("\r\n"))
      assert.ok(line.length <= 78, `line too long: ${line}`);
  },
);

Deno.test(
  "quotes and line breaks in a name cannot add headers or break the Reply-To address",
  async () => {
    const name = 'Ada "The Countess" Lovelace\r\nBcc: everyone@example.org';
    const message = await sent(
      composeNotification(
        request({ name, organization: 'O\'Brien & "Sons"\nTransit' }),
        settings,
        sentAt,
      ),
    );
    assert.equal(message.headers.has("bcc"), false);
    assert.doesNotMatch(message.raw, /^Bcc:/im);
    assert.match(
      message.raw,
      /^Reply-To: "Ada \\"The Countess\\" Lovelace Bcc: everyone@example\.org"\r\n <ada@example\.org>\r$/m,
    );
    assert.equal(
      message.headers.get("subject"),
      'Meeting request: Ada "The Countess" Lovelace Bcc: everyone@example.org (O\'Brien & "Sons" Transit)',
    );
  },
);

Deno.test("a 6,000-character message arrives whole, its lines kept as lines", async () => {
  const challenges =
    "Challenges/Questions: " + "Our riders need better first/last-mile links. ".repeat(200);
  const text = `Phone: Not provided\n${challenges}`.slice(0, 6000);
  assert.equal(text.length, 6000);
  const message = await sent(composeNotification(request({ message: text }), settings, sentAt));
  assert.ok(message.body.includes(`\n  Phone: Not provided\n  ${text.split("\n")[1]}\n`));
  for (const line of message.raw.split("\r\n")) assert.ok(line.length <= 78);
});

Deno.test("control characters and bidirectional overrides are shown, not obeyed", () => {
  const email = composeNotification(
    request({ name: "evil\u202eredro", message: "Phone: \u001b[31m555" }),
    settings,
    sentAt,
  );
  assert.match(email.text, /Name: {10}evil\\u202eredro/);
  assert.match(email.text, /Phone: \\u001b\[31m555/);
});

Deno.test(
  "Reply-To: an internationalised domain in punycode; a non-ASCII local part is named in the body instead",
  async () => {
    const idn = await sent(
      composeNotification(request({ email: "ünicode@bücher.de" }), settings, sentAt),
    );
    assert.equal(idn.headers.has("reply-to"), false);
    assert.match(idn.body, /The address ünicode@bücher\.de cannot be set as Reply-To/);
    const domainOnly = await sent(
      composeNotification(request({ email: "info@bücher.de" }), settings, sentAt),
    );
    assert.equal(domainOnly.headers.get("reply-to"), "Ada Lovelace <info@xn--bcher-kva.de>");
  },
);

Deno.test(
  "chat text: one line of who and when, then the message; Slack's control sequences escaped",
  () => {
    const text = chatText(
      request({
        name: "Ada <!channel>",
        message: "Challenges/Questions: <https://evil.example|click> & more",
      }),
    );
    assert.equal(
      text,
      [
        "New meeting request: Ada &lt;!channel&gt; (Metro Transit Authority), ada@example.org",
        "Received Monday, November 23, 2026 at 5:05:01 PM UTC",
        "  Challenges/Questions: &lt;https://evil.example|click&gt; &amp; more",
      ].join("\n"),
    );
  },
);
