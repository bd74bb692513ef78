/** What staff read, as postal-mime and Python's email package read it (test-support/harness.ts). */
import assert from "node:assert/strict";

import { chatText, composeDigest, composeNotification, digestText } from "./compose.ts";
import { messageBytes, type StaffEmail } from "./mail.ts";
import { heldDigests, type MeetingRequest } from "./payload.ts";
import { ADDRESSING, DIGEST_ROW, meetingRequest, readMail } from "./test-support/harness.ts";

const sentAt = new Date("2026-11-23T17:06:00Z");
const sent = async (email: StaffEmail) => readMail(await messageBytes(email));
const request = (fields: Partial<MeetingRequest> = {}) => meetingRequest(42, fields);
/** The e-mail about a request with these fields, as read. */
const mailAbout = (fields: Partial<MeetingRequest>) =>
  sent(composeNotification(request(fields), ADDRESSING, sentAt));

Deno.test("the e-mail: subject, addresses, Reply-To, the fields, the time received", async () => {
  const message = await mailAbout({});
  assert.deepEqual(message.headers, {
    "auto-submitted": "auto-generated",
    from: "Expo website <noreply@example-transit.com>",
    to: "Sales <sales@example-transit.com>, ops@example-transit.com",
    "reply-to": "Ada Lovelace <ada@example.org>",
    subject: "Meeting request: Ada Lovelace (Metro Transit Authority)",
    "message-id": `<meeting-request-42-${Date.UTC(2026, 10, 23, 17, 5, 1, 123)}@example-transit.com>`,
    date: "Mon, 23 Nov 2026 17:06:00 +0000",
    "content-transfer-encoding": "quoted-printable",
    "mime-version": "1.0",
    "content-type": 'text/plain; charset="utf-8"',
  });
  // A retry an hour later: another Date, the same Message-ID, so mail clients fold a duplicate.
  const retried = await sent(composeNotification(request(), ADDRESSING, new Date(+sentAt + 3.6e6)));
  assert.equal(retried.headers["message-id"], message.headers["message-id"]);
  assert.notEqual(retried.headers.date, message.headers.date);
  assert.equal(
    message.text,
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
  const chicago = { ...ADDRESSING, timeZone: "America/Chicago" };
  const { text } = composeNotification(request(), chicago, sentAt);
  assert.match(text, /Received: {6}Monday, November 23, 2026 at 11:05:01 AM CST/);
});

// What a visitor may type in the name and organization, and what reaches staff: exactly that, in
// the Subject, the Reply-To's name (one line: tabs and line breaks become a space) and the body.
// A line break never adds a header; the message stays ASCII in lines of at most 78.
const typed: [label: string, name: string, organization: string][] = [
  ["encoded words", "Mallory =?UTF-8?B?SGk=?= 7", "=?utf-8?q?Evil?= Corp =?x?B?SGk=?="],
  ["encoded words and non-ASCII", "Zoë =?UTF-8?Q?x?=", "=?ISO-8859-1?B?SGk=?= Łódź"],
  [
    "quotes, commas, semicolons",
    'Ada "The Countess" Lovelace, Jr.; \\o/',
    'O\'Brien & "Sons", Ltd.',
  ],
  [
    "non-Latin scripts",
    "東京都交通局 山田 太郎",
    "שלום תחבורה — مرحبا بالعالم · Zoë Saldaña-Ñúñez",
  ],
  ["line breaks", "Ada\r\nBcc: everyone@example.org", "Metro\nTransit\rX-Injected: yes"],
  ["a tab", "Ada\tLovelace", "Metro Transit"],
  ["a long name ending in an encoded word", `${"Long ".repeat(30)}=?UTF-8?B?SGk=?=`, "Org"],
];

for (const [label, name, organization] of typed) {
  Deno.test(`typed text reaches staff as typed: ${label}`, async () => {
    const message = await mailAbout({ name, organization });
    assert.equal(message.headers.subject, `Meeting request: ${name} (${organization})`);
    assert.deepEqual(message.addresses["reply-to"], [
      [name.replace(/[\t\r\n]+/g, " "), "ada@example.org"],
    ]);
    assert.equal(Object.keys(message.headers).length, 10);
    const field = (text: string) => text.split(/\r\n?|\n/).join(`\n${" ".repeat(15)}`);
    assert.ok(message.text!.includes(`\nName:          ${field(name)}\n`));
    assert.ok(message.text!.includes(`\nOrganization:  ${field(organization)}\n`));
    assert.match(message.raw, /^[\t\x20-\x7e\r\n]*$/);
    const longest = name.length > 100 ? 998 : 78; // a long name is one encoded word (mail.ts)
    for (const line of message.raw.split("\r\n")) assert.ok(line.length <= longest, line);
  });
}

Deno.test("a 6,000-character message arrives whole, its lines kept as lines", async () => {
  const challenges = `Challenges/Questions: ${"Our riders need better first/last-mile links. ".repeat(200)}`;
  const text = `Phone: Not provided\n${challenges}`.slice(0, 6000);
  const message = await mailAbout({ message: text });
  assert.ok(message.text!.includes(`\n  Phone: Not provided\n  ${text.split("\n")[1]}\n`));
  for (const line of message.raw.split("\r\n")) assert.ok(line.length <= 78);
});

Deno.test("control characters and bidirectional overrides are shown, not obeyed", async () => {
  const message = await mailAbout({ name: "evil\u202eredro", message: "Phone: \u001b[31m555" });
  assert.equal(
    message.headers.subject,
    "Meeting request: evil\\u202eredro (Metro Transit Authority)",
  );
  assert.match(message.text!, /Name: {10}evil\\u202eredro\n/);
  assert.match(message.text!, /Phone: \\u001b\[31m555/);
});

Deno.test("Reply-To in punycode; a non-ASCII local part named in the body instead", async () => {
  const idn = await mailAbout({ email: "ünicode@bücher.de" });
  assert.equal(idn.headers["reply-to"], undefined);
  assert.match(idn.text!, /The address ünicode@bücher\.de cannot be set as Reply-To/);
  const domainOnly = await mailAbout({ email: "info@bücher.de" });
  assert.equal(domainOnly.headers["reply-to"], "Ada Lovelace <info@xn--bcher-kva.de>");
});

Deno.test("chat text: who and when, then the message; Slack's control sequences escaped", () => {
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
});

const DIGEST_TEXT = `14 meeting requests were held back, from 5 network addresses,
between Tuesday, November 24, 2026 at 11:02:05 PM UTC
and Tuesday, November 24, 2026 at 11:19:40 PM UTC.
They are stored; none of them was e-mailed to you one by one.

Why they were held (a request can have several reasons):
  not sent through the site's page (no proof)              12
  over its network address's budget of one-by-one e-mails   1
  the page never confirmed its proof                        1

The first 3, the likeliest real requests first:

1. Dana Whitfield (Valley Regional Transit) <dana@vrt.example>
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
     Visit https://seo.example and http://links.example

11 more requests are in this digest, not listed here. Every one, in the same order:
  SQL editor:  select * from meeting_requests_overview where digest = 4 order by digest_rank;
  locally:     npm run requests -- --digest 4

--
A real lead among them? Reply to it from here, or find it in the table editor's
meeting_requests_overview (digest, held_for), or \`npm run requests\` on a local backend.
Digest #4 (public.contact_digests). At most one digest is sent every 15 minutes.
`;

const digest = (fields: Record<string, unknown> = {}) =>
  heldDigests([{ ...DIGEST_ROW, ...fields }])[0]!;

Deno.test("the digest: reasons counted, likeliest real first, where the rest are", async () => {
  const to = [{ address: "sales@example-transit.com" }];
  const message = await sent(composeDigest(digest(), { ...ADDRESSING, to }, sentAt));
  assert.equal(
    message.headers.subject,
    "Held back: 14 meeting requests, 1 sent through the page (digest #4)",
  );
  assert.equal(message.headers["message-id"], "<meeting-request-digest-4@example-transit.com>");
  assert.equal(message.headers["reply-to"], undefined);
  assert.equal(message.headers["auto-submitted"], "auto-generated");
  assert.equal(message.headers.to, "sales@example-transit.com");
  assert.equal(message.text, DIGEST_TEXT);
});

Deno.test("a digest that lists every request says so; one request in the singular", () => {
  const one = digest({
    request_count: 1,
    client_count: 1,
    interval_seconds: 60,
    reasons: { "no page proof": 1 },
    requests: [DIGEST_ROW.requests[2]],
  });
  const text = digestText(one);
  assert.match(text, /^1 meeting request was held back, from 1 network address,\n/);
  assert.match(text, /\nIt, the likeliest real requests first:\n/);
  assert.doesNotMatch(text, /not listed here/);
  assert.match(text, /At most one digest is sent every 1 minute\.\n$/);
  assert.equal(
    composeDigest(one, ADDRESSING, sentAt).subject,
    "Held back: 1 meeting request (digest #4)",
  );
  const all = digestText(digest({ request_count: 3 }));
  assert.match(all, /\nAll 3, the likeliest real requests first:\n/);
  assert.doesNotMatch(all, /not listed here/);
});
