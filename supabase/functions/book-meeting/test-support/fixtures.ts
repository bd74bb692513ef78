// The schedule as the site publishes it (/book/schedule.json), the prospect, and the invitation
// as a calendar library nobody here wrote reads it: book-meeting's tests, the e2e, bench:booking.
import ICAL from "ical.js";
import PostalMime from "postal-mime";

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

export const ADA = {
  name: "Ada Lovelace",
  organization: "Metro Transit Authority",
  email: "ada@example.org",
};

export const MEETING_UID = "0b6f9c2e-6c55-4a57-9d4e-2a1f0f7f5a11";

/** A message's text/calendar part as ical.js reads it: the calendar, its METHOD and its VEVENT. */
export async function calendarPart(raw: string | Uint8Array) {
  const { attachments } = await PostalMime.parse(raw, { attachmentEncoding: "utf8" });
  const part = attachments.find((file) => file.mimeType === "text/calendar")!;
  const calendar = new ICAL.Component(ICAL.parse(part.content as string));
  const event = new ICAL.Event(calendar.getFirstSubcomponent("vevent")!);
  return { calendar, event, method: calendar.getFirstPropertyValue("method") };
}
