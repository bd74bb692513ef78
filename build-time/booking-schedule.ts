/**
 * /book/schedule.json, which the book-meeting Edge Function reads (docs/booking.md): content/expo.yaml's
 * `meetings` block, the event, venue and booth, and the form's meeting times (content/meeting.yaml)
 * on their days. Also the checks a schema cannot say: hours in order, each form time on a day.
 */
import fs from "node:fs";
import path from "node:path";
import type { z } from "zod";
import { show, type Finding } from "./content/messages";
import type { expoSchema } from "./content/schemas/expo";
import type { meetingSchema } from "./content/schemas/meeting";

type Options = z.infer<typeof meetingSchema>["meetingTimeOptions"];

/** The day (1, 2…) and half-day a form time's value names: "day2-afternoon". */
export function optionSlot(value: string) {
  const match = /^day([1-9]\d?)-(morning|afternoon)$/.exec(value.trim());
  return match && { dayNumber: Number(match[1]), halfDay: match[2] as "morning" | "afternoon" };
}

/** Writes <publicDir>/book/schedule.json from the content that last passed the check. */
export function writeBookingSchedule(
  publicDir: string,
  content: (name: string) => Record<string, unknown> | undefined,
): void {
  const [expo, meeting] = [content("expo"), content("meeting")];
  if (!expo?.meetings || !meeting) return;
  // The content check has validated these shapes against the content model.
  const { eventName, venue, booth, meetings } = expo as z.infer<typeof expoSchema>;
  const options = meeting.meetingTimeOptions as Options;
  const schedule = {
    eventName,
    venue: `${venue.name}, ${venue.city}, ${venue.region}`,
    booth,
    ...meetings,
    meetingTimeOptions: options.flatMap(({ label, value }) => {
      const slot = optionSlot(value);
      const day = slot && meetings.days[slot.dayNumber - 1];
      return slot && day ? [{ label, day, halfDay: slot.halfDay }] : [];
    }),
  };
  fs.mkdirSync(path.join(publicDir, "book"), { recursive: true });
  fs.writeFileSync(path.join(publicDir, "book/schedule.json"), JSON.stringify(schedule, null, 2));
}

const fields = (value: unknown) =>
  typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};

/** content/expo.yaml: each half-day ends after it starts; the afternoon starts after the morning. */
export function meetingsChecks(expo: Record<string, unknown>): Finding[] {
  const { morning, afternoon } = fields(expo.meetings);
  const [am, pm] = [fields(morning), fields(afternoon)];
  const order: Array<[string, unknown, unknown, string]> = [
    ["morning.end", am.start, am.end, "is not after the morning's start"],
    ["afternoon.end", pm.start, pm.end, "is not after the afternoon's start"],
    ["afternoon.start", am.end, pm.start, "is before the morning ends"],
  ];
  return order.flatMap(([at, before, after, problem]): Finding[] => {
    if (typeof before !== "string" || typeof after !== "string" || after > before) return [];
    const message = `${show(after)} ${problem} (${show(before)}).`;
    return [{ severity: "error", path: ["meetings", ...at.split(".")], message }];
  });
}

/** content/meeting.yaml: every meeting time is dayN-morning or dayN-afternoon of a meeting day. */
export function meetingTimeChecks(
  meeting: Record<string, unknown>,
  expo: Record<string, unknown>,
): Finding[] {
  const days = fields(expo.meetings).days;
  const dayCount = Array.isArray(days) ? days.length : 0;
  const options = Array.isArray(meeting.meetingTimeOptions) ? meeting.meetingTimeOptions : [];
  return options.flatMap((option, index): Finding[] => {
    const value = fields(option).value;
    if (typeof value !== "string") return [];
    const slot = optionSlot(value);
    const message = !slot
      ? `${show(value)} names no meeting day. Expected day1-morning, day1-afternoon, day2-morning… so staff can book it.`
      : slot.dayNumber > dayCount
        ? `${show(value)} names day ${slot.dayNumber}, but content/expo.yaml lists ${dayCount} meeting days. Add the day there or remove this time.`
        : undefined;
    const at = ["meetingTimeOptions", index, "value"];
    return message ? [{ severity: "error", path: at, message }] : [];
  });
}
