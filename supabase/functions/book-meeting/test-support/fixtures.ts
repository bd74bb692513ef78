/**
 * What book-meeting's tests share: the schedule as the site publishes it, and an in-memory
 * store that follows the SQL's rules (20261128000011_meetings.sql; the database's own tests,
 * supabase/tests/meetings.test.ts, prove those on PGlite and PostgreSQL).
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
      label: `Day ${n} ${halfDay === "morning" ? "Morning" : "Afternoon"}`,
      day: `2025-05-${18 + n}`,
      halfDay,
    })),
  ),
};

type Request = {
  id: number;
  createdAt: string;
  name: string;
  organization: string;
  email: string;
  message: string;
};
type Stored = {
  uid: string;
  sequence: number;
  starts_at: string;
  ends_at: string;
  cancelled: boolean;
};

export function memoryStore(tokens: Record<string, Request>) {
  const meetings = new Map<number, Stored>();
  const guesses = new Map<string, number>();
  const requests = new Map(Object.entries(tokens));
  const live = () => [...meetings.values()].filter((m) => !m.cancelled);
  const store: BookingStore = {
    lookup(hash, client): Promise<Lookup> {
      if ((guesses.get(client) ?? 0) >= 20) return Promise.resolve({ limited: true });
      const request = requests.get(hash);
      if (!request) {
        guesses.set(client, (guesses.get(client) ?? 0) + 1);
        return Promise.resolve({ unknown: true });
      }
      const meeting = meetings.get(request.id);
      const booked = live().map((m) => [m.starts_at, m.ends_at] as [string, string]);
      return Promise.resolve({
        found: { ...request, meeting: meeting && !meeting.cancelled ? meeting : null, booked },
      });
    },
    book(hash, action, slot, capacity): Promise<Booking> {
      const request = requests.get(hash);
      if (!request) return Promise.resolve({ outcome: "gone" });
      const current = meetings.get(request.id);
      const booked = current && !current.cancelled;
      if (action === "book" && booked)
        return Promise.resolve({ outcome: "already-booked", meeting: current });
      if (action !== "book" && !booked) return Promise.resolve({ outcome: "not-booked" });
      if (action === "cancel") {
        meetings.set(request.id, { ...current!, sequence: current!.sequence + 1, cancelled: true });
        return Promise.resolve({ outcome: "cancelled", meeting: meetings.get(request.id) });
      }
      const overlapping = live().filter(
        (m) => m !== current && m.starts_at < slot!.endsAt && m.ends_at > slot!.startsAt,
      );
      if (overlapping.length >= capacity) return Promise.resolve({ outcome: "full" });
      const meeting = {
        uid: booked ? current.uid : crypto.randomUUID(),
        sequence: booked ? current.sequence + 1 : 0,
        starts_at: slot!.startsAt,
        ends_at: slot!.endsAt,
        cancelled: false,
      };
      meetings.set(request.id, meeting);
      return Promise.resolve({ outcome: booked ? "moved" : "booked", meeting });
    },
  };
  return { store, meetings, requests };
}
