/**
 * "view" and every refusal, against a store that answers as the SQL does (its rules, the guess
 * count and the capacity, are proved in supabase/tests/meetings.test.ts). Book, move and cancel,
 * their answers and e-mails: e2e/tests/booking.spec.ts.
 */
import assert from "node:assert/strict";

import { sha256Hex } from "../notify-meeting-request/booking-links.ts";
import type { StaffEmail } from "../notify-meeting-request/mail.ts";
import { ADDRESSING } from "../notify-meeting-request/test-support/harness.ts";
import { createBookingHandler, type Booking } from "./handler.ts";
import { ADA, MEETING_UID, SCHEDULE } from "./test-support/fixtures.ts";

const TOKEN = "q".repeat(43);
const LIMITED_CLIENT = "203.0.113.5";
const MESSAGE = `Phone: Not provided\nPreferred Meeting Time: Day 2 Morning\n${"é".repeat(250)}`;
const NINE = "2025-05-20T16:00:00.000Z"; // 9:00 on day 2 in Palm Springs
const HALF_PAST_NINE = "2025-05-20T16:30:00.000Z";
const TUESDAY_NINE = "Tuesday, May 20, 2025, 9:00 – 9:30 AM Pacific Daylight Time";
const ONE_SENTENCE = /^[^.]+(\.[^ .][^.]*)*[.]$/;

type Stored = NonNullable<Booking["meeting"]>;
const AT_NINE: Stored = { uid: MEETING_UID, sequence: 0, starts_at: NINE, ends_at: HALF_PAST_NINE };

/** BOOKING_NOW (undefined: the real clock), the request, what the store has and answers. */
type Situation = Partial<{ now: string; createdAt: string }> &
  Partial<{ current: Stored; booked: [string, string][]; booking: Booking }>;

/**
 * The handler on `now`, by default BOOKING_NOW=expo-eve (the eve of this past expo); the store
 * finds TOKEN's request, counts LIMITED_CLIENT over the guess limit.
 */
async function setUp(situation: Situation = {}) {
  const { now = "expo-eve", createdAt = "2025-04-01", current = null } = situation;
  const hash = sha256Hex(TOKEN);
  const found = { id: 1, ...ADA, message: MESSAGE, createdAt };
  const sent: StaffEmail[] = [];
  const books: string[] = [];
  const handler = createBookingHandler({
    siteUrl: "https://expo.example",
    from: ADDRESSING.from,
    organizer: ADDRESSING.to[0]!,
    store: {
      lookup: (tokenHash, client) =>
        Promise.resolve(
          client === LIMITED_CLIENT
            ? { limited: true }
            : tokenHash === hash
              ? { found: { ...found, meeting: current, booked: situation.booked ?? [] } }
              : { unknown: true },
        ),
      book: (_hash, action) => (books.push(action), Promise.resolve(situation.booking!)),
    },
    schedule: () => Promise.resolve(SCHEDULE),
    sendMail: (email) => (sent.push(email), Promise.resolve("250 OK")),
    now: "now" in situation ? situation.now : now,
    log: () => {},
  });
  const post = async (body: object, client = "198.51.100.7") => {
    const headers = { "x-forwarded-for": `${client}, 10.0.0.1` };
    const init = { method: "POST", headers, body: JSON.stringify(body) };
    const response = await handler(new Request("http://function/book-meeting", init));
    const answer = await response.json();
    if (response.status >= 400) assert.match(answer.message, ONE_SENTENCE);
    return { status: response.status, ...answer };
  };
  return { handler, post, sent, books };
}

Deno.test(
  "view: the request, its message cut at 200 characters, the free times with the preferred half-day first; nothing changes",
  async () => {
    const day1Nine = ["2025-05-19T16:00:00Z", "2025-05-19T16:30:00Z"] as [string, string];
    const { handler, post, books, sent } = await setUp({ booked: [day1Nine, day1Nine] });
    const preflight = await handler(new Request("http://function/", { method: "OPTIONS" }));
    assert.equal(preflight.headers.get("access-control-allow-origin"), "https://expo.example");
    const view = await post({ token: TOKEN, action: "view" });
    const messageStart = `${MESSAGE.slice(0, 200)}…`;
    assert.deepEqual(view.request, { ...ADA, preferredTime: "Day 2 Morning", messageStart });
    assert.deepEqual([view.meeting, view.zone, view.booth], [null, "Pacific Daylight Time", "713"]);
    assert.equal(view.slots.length, 3 * 14 - 1); // 9:00 on day 1 is full (capacity 2)
    const first = { startsAt: NINE, endsAt: HALF_PAST_NINE, day: "2025-05-20" };
    const labels = { group: "Tuesday, May 20, morning", time: "9:00 AM" };
    assert.deepEqual(view.slots[0], { ...first, halfDay: "morning", preferred: true, ...labels });
    assert.equal(view.slots.filter((slot: { preferred: boolean }) => slot.preferred).length, 6);
    assert.equal(view.slots[6].startsAt, "2025-05-19T16:30:00.000Z"); // then in time order
    assert.deepEqual([books, sent], [[], []]);
  },
);

const booking = (outcome: Booking["outcome"], current?: Stored) => ({
  booking: { outcome, meeting: current },
});
const VIEW = { token: TOKEN, action: "view" };
const BOOK = { token: TOKEN, action: "book", startsAt: NINE };
const bookAt = (startsAt: string) => ({ ...BOOK, startsAt });
const NOT_VALID = "404 This link is not valid: open it again from the staff e-mail.";
const NOT_A_TIME = "400 That time is not one of CTAA Expo 2025's meeting times.";
const ALREADY = `409 Already booked for ${TUESDAY_NINE}.`;
const EXPIRED = "410 This link expired when CTAA Expo 2025 ended on Wednesday, May 21, 2025.";

/** Label, call, "status message", and the situation (as setUp's). */
const refusals: [string, object, string, Situation?][] = [
  ["a wrong token", { ...VIEW, token: "x".repeat(43) }, NOT_VALID],
  ["too many guesses from here", VIEW, "429 Too many wrong links from here: try again in an hour."],
  ["a time off the grid", bookAt("2025-05-20T16:10:00Z"), NOT_A_TIME],
  ["a day that is not a meeting day", bookAt("2025-05-17T16:00:00Z"), NOT_A_TIME],
  [
    "an unknown action",
    { token: TOKEN, action: "dance" },
    "400 The booking page sent a call this function does not know.",
  ],
  [
    "a time that has passed",
    BOOK,
    "400 That time has passed: pick another.",
    { now: "2025-05-20T17:00:00Z" },
  ],
  ["a move to the booked time", { ...BOOK, action: "move" }, ALREADY, { current: AT_NINE }],
  ["a second press", BOOK, ALREADY, booking("already-booked", AT_NINE)],
  [
    "the last place just taken",
    BOOK,
    "409 That time was just taken: pick another.",
    booking("full"),
  ],
  [
    "a cancel with nothing booked",
    { token: TOKEN, action: "cancel" },
    "409 There is no meeting to move or cancel: book a time first.",
    booking("not-booked"),
  ],
  [
    "a request deleted since the look-up",
    BOOK,
    "404 This request no longer exists.",
    booking("gone"),
  ],
  // No BOOKING_NOW: today's real clock (after May 2025) is past the expo.
  ["by the real clock", BOOK, EXPIRED, { now: undefined }],
  // The last day ends at midnight in Palm Springs (07:00 UTC), not in UTC.
  ["once the last day is over in Palm Springs", VIEW, EXPIRED, { now: "2025-05-22T07:00:00Z" }],
  [
    "a request from over a year before the expo",
    VIEW,
    "410 This link is for a request from before CTAA Expo 2025: it has expired.",
    { createdAt: "2024-05-01" },
  ],
];

for (const [label, body, expected, situation = {}] of refusals) {
  Deno.test(`refused in one sentence, nothing sent: ${label}`, async () => {
    const { post, sent, books } = await setUp(situation);
    const client = label.startsWith("too many") ? LIMITED_CLIENT : undefined;
    const { status, message } = await post(body, client);
    assert.equal(`${status} ${message}`, expected);
    // Only the store's own refusals reach book_meeting, which proves they change nothing.
    const action = (body as { action: string }).action;
    assert.deepEqual([books, sent], [situation.booking ? [action] : [], []]);
  });
}

Deno.test("expiry: the links work until the last day ends in Palm Springs", async () => {
  const { post } = await setUp({ now: "2025-05-22T06:59:59Z" });
  assert.equal((await post({ token: TOKEN, action: "view" })).status, 200);
});
