/**
 * /book/schedule.json: the expo's meeting schedule as the book-meeting Edge Function reads it
 * (docs/booking.md), built from content/expo.yaml (its `meetings` block) and the form's meeting
 * times in content/meeting.yaml, so next year's expo needs no function deploy. Also the checks a
 * schema cannot say: hours in order, days in order within the expo, each form option on a day.
 */
import fs from "node:fs";
import path from "node:path";
import type { z } from "zod";
import type { Finding } from "./content/messages";
import { show } from "./content/messages";
import type { expoSchema } from "./content/schemas/expo";
import type { meetingSchema } from "./content/schemas/meeting";

type Expo = z.infer<typeof expoSchema>;
type HalfDay = "morning" | "afternoon";

export type BookingSchedule = {
  eventName: string;
  venue: string;
  booth: string;
  timeZone: string;
  lengthMinutes: number;
  capacity: number;
  days: string[];
  morning: { start: string; end: string };
  afternoon: { start: string; end: string };
  meetingTimeOptions: Array<{ label: string; day: string; halfDay: HalfDay }>;
};

export const SCHEDULE_PATH = "book/schedule.json";

/** The day and half-day a form option's value names: "day2-afternoon" → Day 2, afternoon. */
export function optionSlot(value: string): { dayNumber: number; halfDay: HalfDay } | undefined {
  const match = /^day([1-9]\d?)-(morning|afternoon)$/.exec(value.trim());
  return match ? { dayNumber: Number(match[1]), halfDay: match[2] as HalfDay } : undefined;
}

export function bookingSchedule(
  expo: Expo,
  meeting: Pick<z.infer<typeof meetingSchema>, "meetingTimeOptions">,
): BookingSchedule {
  const { days, morning, afternoon, lengthMinutes, timeZone, capacity } = expo.meetings;
  const { name, city, region } = expo.venue;
  return {
    eventName: expo.eventName,
    venue: `${name}, ${city}, ${region}`,
    booth: expo.booth,
    timeZone,
    lengthMinutes,
    capacity,
    days,
    morning,
    afternoon,
    meetingTimeOptions: meeting.meetingTimeOptions.flatMap(({ label, value }) => {
      const slot = optionSlot(value);
      const day = slot && days[slot.dayNumber - 1];
      return slot && day ? [{ label, day, halfDay: slot.halfDay }] : [];
    }),
  };
}

/** Writes public/book/schedule.json when both files have passed the check; else leaves it. */
export function writeBookingSchedule(
  publicDir: string,
  content: (name: string) => Record<string, unknown> | undefined,
): void {
  const [expo, meeting] = [content("expo"), content("meeting")];
  if (!expo?.meetings || !meeting) return;
  const schedule = bookingSchedule(expo as Expo, meeting as z.infer<typeof meetingSchema>);
  const file = path.join(publicDir, SCHEDULE_PATH);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(schedule, null, 2)}\n`);
}

const record = (value: unknown): Record<string, unknown> =>
  typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
const texts = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];

/** content/expo.yaml: each half-day ends after it starts, the morning first, days in order within the expo. */
export function meetingsChecks(expo: Record<string, unknown>): Finding[] {
  const meetings = record(expo.meetings);
  const findings: Finding[] = [];
  const error = (at: Array<string | number>, message: string) =>
    findings.push({ severity: "error", path: ["meetings", ...at], message });
  const [morning, afternoon] = [record(meetings.morning), record(meetings.afternoon)];
  for (const [name, hours] of [
    ["morning", morning],
    ["afternoon", afternoon],
  ] as const)
    if (typeof hours.start === "string" && typeof hours.end === "string")
      if (hours.end <= hours.start)
        error([name, "end"], `${show(hours.end)} is not after start ${show(hours.start)}.`);
  if (typeof morning.end === "string" && typeof afternoon.start === "string")
    if (afternoon.start < morning.end)
      error(
        ["afternoon", "start"],
        `${show(afternoon.start)} is before the morning ends (${show(morning.end)}).`,
      );
  const [first, last] = [String(expo.startDate), String(expo.endDate)];
  texts(meetings.days).forEach((day, index, days) => {
    if (index > 0 && day <= days[index - 1]!)
      error(
        ["days", index],
        `${show(day)} is not after the day before it. List each day once, in order.`,
      );
    else if (first <= last && (day < first || day > last))
      error(["days", index], `${show(day)} is not within the expo (${first} to ${last}).`);
  });
  return findings;
}

/** content/meeting.yaml: every meeting time names a meeting day of content/expo.yaml as dayN-morning or dayN-afternoon. */
export function meetingTimeChecks(
  meeting: Record<string, unknown>,
  expo: Record<string, unknown>,
): Finding[] {
  const dayCount = texts(record(expo.meetings).days).length;
  const options = Array.isArray(meeting.meetingTimeOptions) ? meeting.meetingTimeOptions : [];
  return options.flatMap((option, index): Finding[] => {
    const value = record(option).value;
    if (typeof value !== "string") return [];
    const slot = optionSlot(value);
    const problem = !slot
      ? `${show(value)} names no meeting day. Expected day1-morning, day1-afternoon, day2-morning… so staff can book it.`
      : slot.dayNumber > dayCount
        ? `${show(value)} names day ${slot.dayNumber}, but content/expo.yaml lists ${dayCount} meeting days. Add the day there or remove this time.`
        : undefined;
    const path = ["meetingTimeOptions", index, "value"];
    return problem ? [{ severity: "error", path, message: problem }] : [];
  });
}
