/** The invitation as mail readers and a calendar library nobody here wrote (ical.js) read it. */
import assert from "node:assert/strict";

import { messageBytes } from "../notify-meeting-request/mail.ts";
import { ADDRESSING, readMail } from "../notify-meeting-request/test-support/harness.ts";
import { invitationEmail } from "./invitation.ts";
import { ADA, calendarPart, MEETING_UID, SCHEDULE } from "./test-support/fixtures.ts";

const meeting = {
  uid: MEETING_UID,
  sequence: 0,
  startsAt: new Date("2025-05-20T16:00:00Z"),
  endsAt: new Date("2025-05-20T16:30:00Z"),
};

const WHEN = "Tuesday, May 20, 2025, 9:00 – 9:30 AM Pacific Daylight Time";
const WHERE = "Palm Springs Convention Center, Palm Springs, CA, booth 713";

/** The booking's message as read, and its calendar part as ical.js reads it. */
async function received(invitee = ADA) {
  const invitation = { change: "booked", meeting, invitee, schedule: SCHEDULE } as const;
  const addressing = { from: ADDRESSING.from, organizer: ADDRESSING.to[0]! };
  const now = new Date("2025-05-01T10:00:00Z");
  const bytes = await messageBytes(invitationEmail({ ...invitation, ...addressing, now }));
  const message = await readMail(bytes);
  const { calendar, event } = await calendarPart(bytes);
  return { message, calendar, event, html: message.html!, raw: message.raw };
}

Deno.test(
  "a METHOD:REQUEST in a text/calendar part, to the prospect and staff, the time and place in its text",
  async () => {
    const { message, calendar, event, html, raw } = await received();
    assert.match(raw, /Content-Type: text\/calendar; charset=utf-8; method=REQUEST/i);
    assert.equal(calendar.getFirstPropertyValue("method"), "REQUEST");
    assert.equal(event.uid, meeting.uid);
    assert.equal(event.sequence, 0);
    assert.equal(
      event.component.getFirstPropertyValue("dtstamp")!.toString(),
      "2025-05-01T10:00:00Z",
    );
    // The times, place, organizer and attendee as ical.js reads them: e2e/tests/booking.spec.ts.
    assert.equal(event.startDate.zone.tzid, "UTC");
    assert.equal(event.attendees[0]!.getParameter("rsvp"), "TRUE");
    // Gmail may not add an invitation from an unknown sender: the text says when and where.
    assert.ok(message.text!.includes(`\nWhen:  ${WHEN}\nWhere: ${WHERE}\n`));
    for (const cell of [WHEN, WHERE]) assert.ok(html.includes(`<td>${cell}</td>`), cell);
    // The staff mailbox gets the same message, so the meeting is in its calendar too.
    assert.deepEqual(message.addresses.to, [
      ["Ada Lovelace", "ada@example.org"],
      ["Sales", "sales@example-transit.com"],
    ]);
    assert.equal(message.headers.subject, `Invitation: CTAA Expo 2025, booth 713, ${WHEN}`);
  },
);

const typed: [string, string, string][] = [
  [
    "quotes, commas, semicolons",
    'Ada "The Countess" Lovelace, Jr.; \\o/ ^_^',
    'O\'Brien & "Sons", Ltd.',
  ],
  ["encoded words", "Mallory =?UTF-8?B?SGk=?= 7", "=?utf-8?q?Evil?= Corp"],
  ["non-ASCII", "東京都交通局 山田 太郎 · Zoë Saldaña-Ñúñez", "שלום תחבורה — مرحبا"],
];

for (const [label, name, organization] of typed) {
  Deno.test(`typed text reaches the prospect as typed: ${label}`, async () => {
    const { message, event } = await received({ ...ADA, name, organization });
    assert.deepEqual(message.addresses.to![0], [name, "ada@example.org"]);
    assert.ok(message.text!.includes(`\nWho:   ${name} (${organization})\n`));
    assert.equal(event.attendees[0]!.getParameter("cn"), name);
    assert.equal(event.description, `${name} (${organization}) meets us at the booth.`);
  });
}
