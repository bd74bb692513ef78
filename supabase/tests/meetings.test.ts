/**
 * Booking (20261128000010_meetings.sql). The fight over the last place needs two sessions, which
 * PGlite does not have: it runs on PostgreSQL 15 in hosted-postgres.test.ts.
 */
import crypto from "node:crypto";

import { goodRow } from "../../local-backend/test-support/helpers";
import { asStaff, asVisitor, insertAs, migrated, one } from "./harness";

jest.setTimeout(120_000);

const db = migrated();
const hash = (token: string) => crypto.createHash("sha256").update(token).digest("hex");
const at = (time: string) => `2025-05-19T${time}:00Z`;
type Answer = { outcome: string; meeting: { uid: string; sequence: number } };

/** `select public.<name>($1, …)` as the service role, its value. */
async function rpc<T>(name: string, ...args: unknown[]): Promise<T> {
  const call = `select public.${name}(${args.map((_, i) => `$${i + 1}`).join(", ")}) as value`;
  return (await asStaff<{ value: T }>(db(), call, args))[0]!.value;
}

/** A visitor's request (with an x-campaign header) and a link to it. */
async function request(campaign?: string) {
  const headers: Record<string, string> = campaign ? { "x-campaign": campaign } : {};
  await asVisitor(db(), headers, (tx) => insertAs(tx, goodRow()));
  const id = await one<number>(db(), "select max(id)::int as value from public.contacts");
  const token = crypto.randomBytes(32).toString("base64url");
  await rpc("issue_booking_links", JSON.stringify([{ contact_id: id, token_hash: hash(token) }]));
  return { id, token };
}

const book = (token: string, action: string, start = "16:00", end = "16:30", capacity = 2) =>
  rpc<Answer>("book_meeting", hash(token), action, at(start), at(end), capacity);
const lookup = (token: string, client = "198.51.100.7") =>
  rpc<Record<string, object>>("booking_lookup", hash(token), client);

test("a token opens its request only; a wrong one is a counted guess, 20 an hour per client", async () => {
  const { token } = await request();
  expect((await lookup(token)).found).toMatchObject({ name: "Ada Lovelace", meeting: null });
  expect(await lookup(`${token.slice(0, -1)}x`)).toEqual({ unknown: true });
  for (let guess = 1; guess <= 20; guess += 1) await lookup("wrong", "203.0.113.9");
  expect(await lookup(token, "203.0.113.9")).toEqual({ limited: true });
  expect((await lookup(token, "192.0.2.1")).found).toBeDefined();
  await db().exec("delete from private.booking_guesses");
});

test("book, a second press, move (same UID, SEQUENCE + 1), cancel (+ 1), book again (new UID)", async () => {
  const { token } = await request();
  const booked = await book(token, "book");
  const uid = booked.meeting.uid;
  expect(booked).toMatchObject({ outcome: "booked", meeting: { sequence: 0 } });
  expect(await book(token, "book", "17:00", "17:30")).toMatchObject({
    outcome: "already-booked",
    meeting: { starts_at: "2025-05-19T16:00:00+00:00" },
  });
  const moved = await book(token, "move", "17:00", "17:30");
  expect(moved).toMatchObject({ outcome: "moved", meeting: { uid, sequence: 1 } });
  const cancelled = await book(token, "cancel");
  expect(cancelled).toMatchObject({ outcome: "cancelled", meeting: { uid, sequence: 2 } });
  expect(await book(token, "move")).toEqual({ outcome: "not-booked" });
  const again = await book(token, "book");
  expect([again.outcome, again.meeting.sequence, again.meeting.uid === uid]).toEqual([
    "booked",
    0,
    false,
  ]);
  await book(token, "cancel");
});

test("overlapping meetings count against the capacity; full changes nothing; a deleted request is gone", async () => {
  const [a, b, c] = [await request(), await request(), await request()];
  expect((await book(a.token, "book", "18:00", "18:30")).outcome).toBe("booked");
  expect((await book(b.token, "book", "18:15", "18:45")).outcome).toBe("booked");
  expect(await book(c.token, "book", "18:00", "18:30")).toEqual({ outcome: "full" });
  const sql = "select count(*)::int as value from public.meetings where contact_id = $1";
  expect(await one(db(), sql, [c.id])).toBe(0);
  expect((await book(a.token, "move", "18:10", "18:40")).outcome).toBe("moved"); // not itself
  await db().query("delete from public.contacts where id = $1", [c.id]);
  expect(await book(c.token, "book", "20:00", "20:30")).toEqual({ outcome: "gone" });
  await db().exec("delete from public.meetings");
});

test("the request's campaign is kept; the report and the funnel view count booked meetings per campaign", async () => {
  const linkedin = await request("linkedin/social/expo-2025");
  const links = [linkedin, await request("not a campaign"), await request()];
  const cancelled = await request("linkedin/social/expo-2025");
  for (const { token } of [...links, cancelled]) await book(token, "book", "21:00", "21:30", 9);
  await book(cancelled.token, "cancel");
  expect(await one(db(), "select count(*)::int as value from private.contact_campaigns")).toBe(2);
  const today = new Date().toISOString().slice(0, 10);
  type Report = { totals: { meetings: number }; campaigns: object[]; days: object[] };
  const report = await rpc<Report>("site_analytics_report", today, today);
  expect(report.totals.meetings).toBe(3);
  expect(report.campaigns).toEqual([
    expect.objectContaining({ source: "", medium: "", campaign: "", meetings: 2 }),
    expect.objectContaining({ source: "linkedin", campaign: "expo-2025", views: 0, meetings: 1 }),
  ]);
  expect(report.days).toEqual([expect.objectContaining({ date: today, meetings: 3 })]);
  const view = "select source, meetings::int from public.site_funnel_daily where day = $1";
  expect((await db().query(`${view} order by source`, [today])).rows).toEqual([
    { source: "", meetings: 2 },
    { source: "linkedin", meetings: 1 },
  ]);
});
