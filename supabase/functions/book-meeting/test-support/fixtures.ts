/**
 * What book-meeting's tests share: the schedule as the site publishes it, and an in-memory
 * store that follows the SQL's rules (20261128000011_meetings.sql, proved on PGlite and
 * PostgreSQL by supabase/tests/meetings.test.ts).
 */
import type { Booking, BookingStore, Lookup } from "../handler.ts";
import type { Schedule } from "../schedule.ts";

export const SCHEDULE: Schedule = {
  eventName: "CTAA Expo 2025",
  venue: "Palm Springs Convention Center, Palm Springs, CA",
  booth: "713",
  timeZone: "America/Los_Angeles",
  lengthMinutes: 30,
  capacity: 2,
  days: ["2025-05-19", "2025-05-20", "2025-05-21"],
  morning: { start: "09:00", end: "12:00" },
  afternoon: { start: "13:00", end: "17:00" },
  meetingTimeOptions: [1, 2, 3].flatMap((n) =>
    (["morning", "afternoon"] as const).map((halfDay) => ({
      label: `Day ${n} ${halfDay[0]!.toUpperCase()}${halfDay.slice(1)}`,
      day: `2025-05-${18 + n}`,
      halfDay,
    })),
  ),
};

type Request = Record<"name" | "organization" | "email" | "message" | "createdAt", string>;
type Meeting = NonNullable<Booking["meeting"]> & { cancelled?: boolean };

/** The requests by token hash; meetings by request. */
export function memoryStore(requests: Map<string, Request & { id: number }>) {
  const meetings = new Map<number, Meeting>();
  const guesses = new Map<string, number>();
  const live = () => [...meetings.values()].filter((m) => !m.cancelled);
  const find = (hash: string, client: string): Lookup => {
    if ((guesses.get(client) ?? 0) >= 20) return { limited: true };
    const request = requests.get(hash);
    if (!request) return (guesses.set(client, (guesses.get(client) ?? 0) + 1), { unknown: true });
    const meeting = live().find((m) => m === meetings.get(request.id)) ?? null;
    const booked = live().map((m): [string, string] => [m.starts_at, m.ends_at]);
    return { found: { ...request, meeting, booked } };
  };
  const change: (...args: Parameters<BookingStore["book"]>) => Booking = (
    hash,
    action,
    slot,
    capacity,
  ) => {
    const request = requests.get(hash);
    if (!request) return { outcome: "gone" };
    const current = live().find((m) => m === meetings.get(request.id));
    if (action === "book" && current) return { outcome: "already-booked", meeting: current };
    if (action !== "book" && !current) return { outcome: "not-booked" };
    if (action === "cancel") {
      const meeting = { ...current!, sequence: current!.sequence + 1, cancelled: true };
      return (meetings.set(request.id, meeting), { outcome: "cancelled", meeting });
    }
    const { startsAt, endsAt } = slot!;
    const overlap = live().filter(
      (m) => m !== current && m.starts_at < endsAt && m.ends_at > startsAt,
    );
    if (overlap.length >= capacity) return { outcome: "full" };
    const meeting = {
      uid: current?.uid ?? crypto.randomUUID(),
      sequence: current ? current.sequence + 1 : 0,
      starts_at: startsAt,
      ends_at: endsAt,
    };
    meetings.set(request.id, meeting);
    return { outcome: current ? "moved" : "booked", meeting };
  };
  const store: BookingStore = {
    lookup: (hash, client) => Promise.resolve(find(hash, client)),
    book: (...args) => Promise.resolve(change(...args)),
  };
  return { store, meetings };
}
