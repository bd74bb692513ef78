/**
 * The expo's schedule, as the site publishes it at SITE_URL/book/schedule.json (so next year's
 * expo needs no deploy): its slots as instants, when links expire, the clock the function books
 * by, and the venue's time as text. Pure, but for fetchSchedule.
 */
import { z } from "zod";

const HALF_DAYS = ["morning", "afternoon"] as const;
const hours = z.object({ start: z.string(), end: z.string() });

// Only the shape: the content check (build-time) refuses bad dates, hours and zones.
const scheduleSchema = z.object({
  eventName: z.string(),
  venue: z.string(),
  booth: z.string(),
  timeZone: z.string(),
  lengthMinutes: z.int().positive(),
  capacity: z.int().positive(),
  days: z.array(z.string()).min(1),
  morning: hours,
  afternoon: hours,
  meetingTimeOptions: z.array(
    z.object({ label: z.string(), day: z.string(), halfDay: z.enum(HALF_DAYS) }),
  ),
});
export type Schedule = z.infer<typeof scheduleSchema>;

export interface Slot {
  startsAt: string;
  endsAt: string;
  day: string;
  halfDay: (typeof HALF_DAYS)[number];
}

/** Reads the schedule; throws one sentence. */
export async function fetchSchedule(siteUrl: string): Promise<Schedule> {
  const url = `${siteUrl}/book/schedule.json`;
  const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`);
  const parsed = scheduleSchema.safeParse(await response.json());
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${url} is not a schedule: ${issue.path.join(".")} ${issue.message}`);
  }
  return parsed.data;
}

/** How far the zone's wall clock is ahead of UTC at `instant` (a whole second), in ms. */
function offset(instant: number, timeZone: string): number {
  // Swedish writes a date and time as ISO 8601 does: "2025-05-20 09:00:00".
  const wall = new Date(instant).toLocaleString("sv-SE", { timeZone }).replace(" ", "T");
  return Date.parse(`${wall}Z`) - instant;
}

/** The instant the venue's clocks show `time` on `day`. */
export function venueTime(day: string, time: string, timeZone: string): Date {
  const wall = Date.parse(`${day}T${time}:00Z`);
  const first = wall - offset(wall, timeZone);
  return new Date(wall - offset(first, timeZone));
}

const DAY_MS = 86_400_000;
const nextDay = (day: string) => new Date(Date.parse(day) + DAY_MS).toISOString().slice(0, 10);

/** In time order. */
export function allSlots(schedule: Schedule): Slot[] {
  const length = schedule.lengthMinutes * 60_000;
  return [...schedule.days].sort().flatMap((day) =>
    HALF_DAYS.flatMap((halfDay) => {
      const slots: Slot[] = [];
      const end = venueTime(day, schedule[halfDay].end, schedule.timeZone).getTime();
      let start = venueTime(day, schedule[halfDay].start, schedule.timeZone).getTime();
      for (; start + length <= end; start += length) {
        const [startsAt, endsAt] = [start, start + length].map((t) => new Date(t).toISOString());
        slots.push({ startsAt: startsAt!, endsAt: endsAt!, day, halfDay });
      }
      return slots;
    }),
  );
}

/** The first meeting day's start and the moment the last one ends, in the venue's zone. */
export function expoSpan(schedule: Schedule): { from: Date; to: Date } {
  const days = [...schedule.days].sort();
  return {
    from: venueTime(days[0]!, "00:00", schedule.timeZone),
    to: venueTime(nextDay(days.at(-1)!), "00:00", schedule.timeZone),
  };
}

/**
 * The clock the function books by: the real one, unless BOOKING_NOW says otherwise (local runs
 * only, see docs/booking.md): an ISO time, or `expo-eve`: noon before the first meeting day
 * (venue time) once the expo is over by the real clock, so a past expo can be tried out.
 */
export function bookingNow(setting: string | undefined, schedule: Schedule, real: Date): Date {
  if (!setting) return real;
  if (setting !== "expo-eve") return new Date(setting);
  const { from, to } = expoSpan(schedule);
  return real < to ? real : new Date(from.getTime() - DAY_MS / 2);
}

/** The option the message's "Preferred Meeting Time: …" line names, if it is one of them. */
export function preferredOption(schedule: Schedule, message: string) {
  const label = /^Preferred Meeting Time: (.*)$/m.exec(message)?.[1]?.trim();
  return schedule.meetingTimeOptions.find((option) => option.label === label);
}

/** The free slots after `now`, the preferred half-day first, then in time order, with their text. */
export function freeSlots(
  schedule: Schedule,
  booked: [string, string][],
  now: Date,
  preferred?: { day: string; halfDay: string },
) {
  const taken = booked.map(([start, end]) => [Date.parse(start), Date.parse(end)]);
  const day = venueFormat(schedule.timeZone, { weekday: "long", month: "long", day: "numeric" });
  const time = venueFormat(schedule.timeZone, { hour: "numeric", minute: "2-digit" });
  return allSlots(schedule)
    .filter((slot) => Date.parse(slot.startsAt) > now.getTime())
    .filter((slot) => {
      const [start, end] = [Date.parse(slot.startsAt), Date.parse(slot.endsAt)];
      return taken.filter(([s, e]) => s! < end && e! > start).length < schedule.capacity;
    })
    .map((slot) => ({
      ...slot,
      preferred: slot.day === preferred?.day && slot.halfDay === preferred?.halfDay,
      group: `${day.format(new Date(slot.startsAt))}, ${slot.halfDay}`,
      time: plain(time.format(new Date(slot.startsAt))),
    }))
    .sort(
      (a, b) => Number(b.preferred) - Number(a.preferred) || a.startsAt.localeCompare(b.startsAt),
    );
}

/** The venue's clock in English. */
export const venueFormat = (timeZone: string, options: Intl.DateTimeFormatOptions) =>
  new Intl.DateTimeFormat("en-US", { timeZone, ...options });
const plain = (text: string) => text.replace(/[\u202f\u2009]/g, " ");

/** "Pacific Daylight Time": the venue zone's name at `instant`. */
export function zoneName(instant: Date, timeZone: string): string {
  return venueFormat(timeZone, { timeZoneName: "long" })
    .formatToParts(instant)
    .find((part) => part.type === "timeZoneName")!.value;
}

/** "Monday, May 19, 2025, 9:00 – 9:30 AM Pacific Daylight Time": the venue's time, named. */
export function venueTimeText(startsAt: Date, endsAt: Date, timeZone: string): string {
  const day = venueFormat(timeZone, { dateStyle: "full" }).format(startsAt);
  const hours = venueFormat(timeZone, { hour: "numeric", minute: "2-digit" });
  return plain(`${day}, ${hours.formatRange(startsAt, endsAt)} ${zoneName(startsAt, timeZone)}`);
}
