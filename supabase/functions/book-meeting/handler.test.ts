/** The calls of the /book/ page and every refusal, against a store that follows the SQL's rules. */
import assert from "node:assert/strict";

import type { StaffEmail } from "../notify-meeting-request/mail.ts";
import { createBookingHandler, type BookingStore } from "./handler.ts";
import { memoryStore, SCHEDULE } from "./test-support/fixtures.ts";

const TOKEN = "q".repeat(43);
const hash = async (text: string) =>
  [...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)))]
    .map((byte) => byte.toString(16).padStart(2, "0"))
    .join("");
const MESSAGE =
  "Phone: Not provided\nPreferred Meeting Time: Day 2 Morning\nChallenges/Questions: None provided";
const request = (id: number, createdAt = "2025-04-01T00:00:00Z") => ({
  id,
  createdAt,
  name: "Ada Lovelace",
  organization: "Metro Transit Authority",
  email: "ada@example.org",
  message: MESSAGE,
});

async function setUp(
  now: string | null = "2025-05-18T12:00:00Z",
  createdAt?: string,
  wrap = (store: BookingStore) => store,
) {
  const { store, meetings, requests } = memoryStore({ [await hash(TOKEN)]: request(1, createdAt) });
  for (let id = 2; id <= 4; id += 1) requests.set(await hash(`other-${id}`), request(id));
  const sent: StaffEmail[] = [];
  const books: string[] = [];
  const handler = createBookingHandler({
    siteUrl: "https://expo.example",
    from: { name: "Expo website", address: "noreply@example-transit.com" },
    organizer: { name: "Sales", address: "sales@example-transit.com" },
    smtp: { host: "127.0.0.1", port: 2525, security: "plain" },
    store: wrap({ ...store, book: (...args) => (books.push(args[1]), store.book(...args)) }),
    schedule: () => Promise.resolve(SCHEDULE),
    sendMail: (_settings, email) => (sent.push(email), Promise.resolve("250 OK")),
    now: now ?? undefined,
    log: () => {},
  });
  const post = async (body: object, client = "198.51.100.7") => {
    const response = await handler(
      new Request("http://function/book-meeting", {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": `${client}, 10.0.0.1` },
        body: JSON.stringify(body),
      }),
    );
    const answer = await response.json();
    if (response.status >= 400) assert.match(answer.message, /^[^.]+(\.[^ .][^.]*)*[.]$/); // one sentence
    return { status: response.status, ...answer };
  };
  return { post, sent, books, meetings, requests };
}

const nineOnDay2 = "2025-05-20T16:00:00.000Z";

Deno.test("the preflight is answered for the site's origin", async () => {
  const { store } = memoryStore({});
  const handler = createBookingHandler({
    siteUrl: "https://expo.example/",
    from: { address: "a@b.example" },
    organizer: { address: "a@b.example" },
    smtp: { host: "127.0.0.1", port: 2525, security: "plain" },
    store,
    schedule: () => Promise.resolve(SCHEDULE),
    sendMail: () => Promise.resolve(""),
  });
  const response = await handler(
    new Request("http://function/book-meeting", { method: "OPTIONS" }),
  );
  assert.equal(response.status, 204);
  assert.equal(response.headers.get("access-control-allow-origin"), "https://expo.example");
  assert.match(response.headers.get("access-control-allow-headers")!, /apikey/);
});

Deno.test(
  "view: the request and the free times, the preferred half-day first; nothing changes",
  async () => {
    const { post, books, sent } = await setUp();
    await post({ token: "other-2", action: "book", startsAt: "2025-05-19T16:00:00Z" });
    await post({ token: "other-3", action: "book", startsAt: "2025-05-19T16:00:00Z" });
    books.length = sent.length = 0;
    const view = await post({ token: TOKEN, action: "view" });
    assert.deepEqual(view.request, {
      name: "Ada Lovelace",
      organization: "Metro Transit Authority",
      email: "ada@example.org",
      preferredTime: "Day 2 Morning",
      messageStart: MESSAGE,
    });
    assert.equal(view.meeting, null);
    assert.deepEqual(
      [view.timeZone, view.booth, view.eventName],
      ["America/Los_Angeles", "713", "CTAA Expo 2025"],
    );
    assert.equal(view.slots.length, 3 * 14 - 1); // 9:00 on day 1 is full (capacity 2)
    assert.deepEqual(view.slots[0], {
      startsAt: nineOnDay2,
      endsAt: "2025-05-20T16:30:00.000Z",
      day: "2025-05-20",
      halfDay: "morning",
      preferred: true,
    });
    assert.equal(view.slots.filter((slot: { preferred: boolean }) => slot.preferred).length, 6);
    assert.equal(view.slots[6].startsAt, "2025-05-19T16:30:00.000Z"); // then in time order
    assert.deepEqual([books, sent], [[], []]);
  },
);

Deno.test(
  "book, a second press, move, cancel: one e-mail each, nothing for the second press",
  async () => {
    const { post, sent } = await setUp();
    const booked = await post({
      token: TOKEN,
      action: "book",
      startsAt: "2025-05-20T09:00:00-07:00",
    });
    assert.equal(booked.status, 200);
    assert.deepEqual(booked.meeting, { startsAt: nineOnDay2, endsAt: "2025-05-20T16:30:00.000Z" });
    assert.equal(
      booked.message,
      "Booked for Tuesday, May 20, 2025, 9:00 – 9:30 AM Pacific Daylight Time; the invitation went to ada@example.org.",
    );
    const again = await post({ token: TOKEN, action: "book", startsAt: "2025-05-21T20:00:00Z" });
    assert.deepEqual(again, {
      status: 409,
      message: "Already booked for Tuesday, May 20, 2025, 9:00 – 9:30 AM Pacific Daylight Time.",
    });
    const same = await post({ token: TOKEN, action: "move", startsAt: nineOnDay2 });
    assert.equal(same.status, 409);
    const moved = await post({ token: TOKEN, action: "move", startsAt: "2025-05-21T20:00:00Z" });
    assert.match(
      moved.message,
      /^Moved to Wednesday, May 21, 2025, 1:00 – 1:30 PM Pacific Daylight Time; the update went to/,
    );
    const cancelled = await post({ token: TOKEN, action: "cancel" });
    assert.deepEqual(cancelled.meeting, null);
    assert.match(cancelled.message, /^Cancelled the meeting on Wednesday, May 21, 2025, 1:00/);
    const view = await post({ token: TOKEN, action: "view" });
    assert.equal(view.meeting, null);
    const calendars = sent.map(
      (email) => (email as { icalEvent?: { method: string; content: string } }).icalEvent!,
    );
    assert.deepEqual(
      calendars.map((ics) => ics.method),
      ["REQUEST", "REQUEST", "CANCEL"],
    );
    assert.deepEqual(
      calendars.map((ics) => /SEQUENCE:(\d+)/.exec(ics.content)![1]),
      ["0", "1", "2"],
    );
    const uids = new Set(calendars.map((ics) => /UID:(\S+)/.exec(ics.content)![1]));
    assert.equal(uids.size, 1);
  },
);

Deno.test("refusals: one sentence each; nothing booked, nothing sent", async () => {
  const { post, sent, meetings, requests } = await setUp();
  const slot = { action: "book", startsAt: nineOnDay2 };
  assert.deepEqual(await post({ token: "x".repeat(43), action: "view" }), {
    status: 404,
    message: "This link is not valid: open it again from the staff e-mail.",
  });
  assert.equal((await post({ token: `${TOKEN.slice(0, -1)}r`, ...slot })).status, 404); // tampered
  assert.equal(
    (await post({ token: TOKEN, action: "book", startsAt: "2025-05-20T16:10:00Z" })).status,
    400,
  );
  assert.equal(
    (await post({ token: TOKEN, action: "book", startsAt: "2025-05-17T16:00:00Z" })).status,
    400,
  );
  assert.equal((await post({ token: TOKEN, action: "dance" })).status, 400);
  assert.deepEqual(await post({ token: TOKEN, action: "move", startsAt: nineOnDay2 }), {
    status: 409,
    message: "There is no meeting to move or cancel: book a time first.",
  });
  await post({ token: "other-2", ...slot });
  await post({ token: "other-3", ...slot });
  sent.length = 0;
  assert.deepEqual(await post({ token: TOKEN, ...slot }), {
    status: 409,
    message: "That time was just taken: pick another.",
  });
  requests.delete(await hash("other-4"));
  assert.equal((await post({ token: "other-4", action: "view" })).status, 404);
  for (let guess = 0; guess < 20; guess += 1)
    await post({ token: `guess-${guess}`, action: "view" }, "203.0.113.5");
  assert.deepEqual(await post({ token: TOKEN, action: "view" }, "203.0.113.5"), {
    status: 429,
    message: "Too many wrong links from here: try again in an hour.",
  });
  assert.equal((await post({ token: TOKEN, action: "view" })).status, 200); // other clients are served
  assert.deepEqual([sent.length, meetings.size], [0, 2]);
});

Deno.test("a request deleted between the look-up and the booking: 404, nothing sent", async () => {
  const { post, sent, requests } = await setUp("2025-05-18T12:00:00Z", undefined, (store) => ({
    ...store,
    lookup: async (...args) => {
      const found = await store.lookup(...args);
      requests.clear();
      return found;
    },
  }));
  assert.deepEqual(await post({ token: TOKEN, action: "book", startsAt: nineOnDay2 }), {
    status: 404,
    message: "This request no longer exists.",
  });
  assert.equal(sent.length, 0);
});

Deno.test(
  "expiry: after the last meeting day ends (venue time), by the real clock and by BOOKING_NOW",
  async () => {
    // No BOOKING_NOW: today's real clock (after May 2025) is past the expo.
    const real = await setUp(null);
    assert.deepEqual(await real.post({ token: TOKEN, action: "view" }), {
      status: 410,
      message: "This link expired when CTAA Expo 2025 ended on Wednesday, May 21, 2025.",
    });
    assert.equal(
      (await real.post({ token: TOKEN, action: "book", startsAt: nineOnDay2 })).status,
      410,
    );
    assert.equal(real.sent.length, 0);
    // The last day ends at midnight in Palm Springs (07:00 UTC), not in UTC.
    assert.equal(
      (await (await setUp("2025-05-22T06:59:59Z")).post({ token: TOKEN, action: "view" })).status,
      200,
    );
    assert.equal(
      (await (await setUp("2025-05-22T07:00:00Z")).post({ token: TOKEN, action: "view" })).status,
      410,
    );
    // expo-eve (what the local backend sets) acts on the eve of a past expo, and only then.
    const eve = await setUp("expo-eve");
    assert.equal(
      (await eve.post({ token: TOKEN, action: "book", startsAt: nineOnDay2 })).status,
      200,
    );
    // A request from more than a year before the expo: last year's links do not come back.
    const old = await setUp("2025-05-18T12:00:00Z", "2024-05-01T00:00:00Z");
    assert.equal((await old.post({ token: TOKEN, action: "view" })).status, 410);
  },
);
