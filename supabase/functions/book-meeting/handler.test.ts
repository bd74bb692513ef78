/** The calls of the /book/ page and every refusal, against a store that follows the SQL's rules. */
import assert from "node:assert/strict";

import { sha256Hex } from "../notify-meeting-request/booking-links.ts";
import type { StaffEmail } from "../notify-meeting-request/mail.ts";
import { createBookingHandler, type BookingStore } from "./handler.ts";
import { memoryStore, SCHEDULE } from "./test-support/fixtures.ts";

const TOKEN = "q".repeat(43);
const MESSAGE = "Phone: Not provided\nPreferred Meeting Time: Day 2 Morning";
const NINE = "2025-05-20T16:00:00.000Z"; // 9:00 on day 2 in Palm Springs
const TUESDAY_NINE = "Tuesday, May 20, 2025, 9:00 – 9:30 AM Pacific Daylight Time";
const ONE_SENTENCE = /^[^.]+(\.[^ .][^.]*)*[.]$/;

/** The handler on `now` (BOOKING_NOW), TOKEN's request and three others ("other-2" …). */
async function setUp(now: string | null = "2025-05-18T12:00:00Z", createdAt = "2025-04-01") {
  const request = { name: "Ada Lovelace", organization: "Metro Transit Authority" };
  const requests = new Map(
    await Promise.all(
      [TOKEN, "other-2", "other-3", "other-4"].map(async (token, i) => {
        const fields = { ...request, email: "ada@example.org", message: MESSAGE, createdAt };
        return [await sha256Hex(token), { id: i + 1, ...fields }] as const;
      }),
    ),
  );
  const { store, meetings } = memoryStore(requests);
  const sent: StaffEmail[] = [];
  const books: string[] = [];
  let wrap = (store: BookingStore) => store;
  const handler = createBookingHandler({
    siteUrl: "https://expo.example",
    from: { name: "Expo website", address: "noreply@example-transit.com" },
    organizer: { name: "Sales", address: "sales@example-transit.com" },
    smtp: { host: "127.0.0.1", port: 2525, security: "plain", timeoutMs: 15_000 },
    store: {
      lookup: (...args) => wrap(store).lookup(...args),
      book: (...args) => (books.push(args[1]), store.book(...args)),
    },
    schedule: () => Promise.resolve(SCHEDULE),
    sendMail: (_settings, email) => (sent.push(email), Promise.resolve("250 OK")),
    now: now ?? undefined,
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
  const setWrap = (next: typeof wrap) => (wrap = next);
  return { handler, post, sent, books, meetings, requests, setWrap };
}

Deno.test(
  "view: the request, the free times with the preferred half-day first; nothing changes",
  async () => {
    const { handler, post, books, sent } = await setUp();
    const preflight = await handler(new Request("http://function/", { method: "OPTIONS" }));
    assert.equal(preflight.headers.get("access-control-allow-origin"), "https://expo.example");
    for (const token of ["other-2", "other-3"])
      await post({ token, action: "book", startsAt: "2025-05-19T16:00:00Z" });
    books.length = sent.length = 0;
    const view = await post({ token: TOKEN, action: "view" });
    assert.deepEqual(view.request, {
      name: "Ada Lovelace",
      organization: "Metro Transit Authority",
      email: "ada@example.org",
      preferredTime: "Day 2 Morning",
      messageStart: MESSAGE,
    });
    assert.deepEqual(
      [view.meeting, view.timeZone, view.booth],
      [null, "America/Los_Angeles", "713"],
    );
    assert.equal(view.slots.length, 3 * 14 - 1); // 9:00 on day 1 is full (capacity 2)
    const first = { startsAt: NINE, endsAt: "2025-05-20T16:30:00.000Z", day: "2025-05-20" };
    assert.deepEqual(view.slots[0], { ...first, halfDay: "morning", preferred: true });
    assert.equal(view.slots.filter((slot: { preferred: boolean }) => slot.preferred).length, 6);
    assert.equal(view.slots[6].startsAt, "2025-05-19T16:30:00.000Z"); // then in time order
    assert.deepEqual([books, sent], [[], []]);
  },
);

Deno.test(
  "book, a second press, move, cancel: one e-mail each, none for the second press",
  async () => {
    const { post, sent } = await setUp();
    const booked = await post({
      token: TOKEN,
      action: "book",
      startsAt: "2025-05-20T09:00:00-07:00",
    });
    assert.deepEqual(booked.meeting, { startsAt: NINE, endsAt: "2025-05-20T16:30:00.000Z" });
    const went = "the invitation went to ada@example.org.";
    assert.equal(booked.message, `Booked for ${TUESDAY_NINE}; ${went}`);
    const again = { status: 409, message: `Already booked for ${TUESDAY_NINE}.` };
    assert.deepEqual(await post({ token: TOKEN, action: "book", startsAt: NINE }), again);
    assert.deepEqual(await post({ token: TOKEN, action: "move", startsAt: NINE }), again);
    const moved = await post({ token: TOKEN, action: "move", startsAt: "2025-05-21T20:00:00Z" });
    assert.match(moved.message, /^Moved to Wednesday, May 21, 2025, 1:00 – 1:30 PM Pacific/);
    const cancelled = await post({ token: TOKEN, action: "cancel" });
    assert.equal(cancelled.meeting, null);
    assert.match(cancelled.message, /^Cancelled the meeting on Wednesday, May 21, 2025, 1:00/);
    assert.equal((await post({ token: TOKEN, action: "view" })).meeting, null);
    const calendars = sent.map(
      (email) => (email as { icalEvent?: { content: string } }).icalEvent!,
    );
    const field = (name: string) =>
      calendars.map((ics) => RegExp(`${name}:(\\S+)`).exec(ics.content)![1]);
    assert.deepEqual(field("METHOD"), ["REQUEST", "REQUEST", "CANCEL"]);
    assert.deepEqual(field("SEQUENCE"), ["0", "1", "2"]);
    assert.equal(new Set(field("UID")).size, 1);
  },
);

Deno.test("refusals: one sentence each; nothing booked, nothing sent", async () => {
  const { post, sent, meetings, requests } = await setUp();
  const slot = { action: "book", startsAt: NINE };
  const status = async (body: object) => (await post(body)).status;
  assert.deepEqual(await post({ token: "x".repeat(43), action: "view" }), {
    status: 404,
    message: "This link is not valid: open it again from the staff e-mail.",
  });
  assert.equal(await status({ token: `${TOKEN.slice(0, -1)}r`, ...slot }), 404); // tampered
  assert.equal(
    await status({ token: TOKEN, action: "book", startsAt: "2025-05-20T16:10:00Z" }),
    400,
  );
  assert.equal(
    await status({ token: TOKEN, action: "book", startsAt: "2025-05-17T16:00:00Z" }),
    400,
  );
  assert.equal(await status({ token: TOKEN, action: "dance" }), 400);
  assert.equal(await status({ token: TOKEN, action: "cancel" }), 409); // nothing booked yet
  for (const token of ["other-2", "other-3"]) await post({ token, ...slot });
  sent.length = 0;
  assert.deepEqual(await post({ token: TOKEN, ...slot }), {
    status: 409,
    message: "That time was just taken: pick another.",
  });
  requests.delete(await sha256Hex("other-4"));
  assert.equal(await status({ token: "other-4", action: "view" }), 404);
  for (let guess = 0; guess < 20; guess += 1)
    await post({ token: `guess-${guess}`, action: "view" }, "203.0.113.5");
  assert.deepEqual(await post({ token: TOKEN, action: "view" }, "203.0.113.5"), {
    status: 429,
    message: "Too many wrong links from here: try again in an hour.",
  });
  assert.equal(await status({ token: TOKEN, action: "view" }), 200); // other clients are served
  assert.deepEqual([sent.length, meetings.size], [0, 2]);
});

Deno.test("a request deleted between the look-up and the booking: 404, nothing sent", async () => {
  const { post, sent, requests, setWrap } = await setUp();
  setWrap((store) => ({
    ...store,
    lookup: (...args) => store.lookup(...args).finally(() => requests.clear()),
  }));
  assert.deepEqual(await post({ token: TOKEN, ...{ action: "book", startsAt: NINE } }), {
    status: 404,
    message: "This request no longer exists.",
  });
  assert.equal(sent.length, 0);
});

Deno.test(
  "expiry: when the last meeting day ends (venue time), by the real clock and BOOKING_NOW",
  async () => {
    const view = async (now: string | null, createdAt?: string) =>
      (await (await setUp(now, createdAt)).post({ token: TOKEN, action: "view" })).status;
    // No BOOKING_NOW: today's real clock (after May 2025) is past the expo.
    const real = await setUp(null);
    assert.deepEqual(await real.post({ token: TOKEN, action: "book", startsAt: NINE }), {
      status: 410,
      message: "This link expired when CTAA Expo 2025 ended on Wednesday, May 21, 2025.",
    });
    assert.equal(real.sent.length, 0);
    // The last day ends at midnight in Palm Springs (07:00 UTC), not in UTC.
    assert.deepEqual(
      [await view("2025-05-22T06:59:59Z"), await view("2025-05-22T07:00:00Z")],
      [200, 410],
    );
    // expo-eve (what the local backend sets) acts on the eve of a past expo.
    assert.equal(await view("expo-eve"), 200);
    // A request from over a year before the expo: last year's links do not come back.
    assert.equal(await view("2025-05-18T12:00:00Z", "2024-05-01"), 410);
  },
);
