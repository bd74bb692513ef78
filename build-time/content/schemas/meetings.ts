/**
 * The `meetings` block of content/expo.yaml: what staff book from their e-mail's link
 * (docs/booking.md), published as /book/schedule.json (build-time/booking-schedule.ts).
 */
import { z } from "zod";
import { formattedText, group, help, isoDate, list } from "../fields";
import { show } from "../messages";

function clockTime(description: string, example: string) {
  return formattedText({
    description,
    expected: "a time of day written HH:MM on the 24-hour clock, such as 13:30",
    example,
    pattern: /^(?:[01]\d|2[0-3]):[0-5]\d$/,
    problem: (value) => `${show(value)} is not a time written HH:MM.`,
    typingHint: 'Put it in quotes, e.g. "09:00".',
  });
}

/** Whether the runtime knows the IANA time zone (Intl throws a RangeError otherwise). */
function isTimeZone(value: string): boolean {
  try {
    return Boolean(new Intl.DateTimeFormat("en-US", { timeZone: value }));
  } catch {
    return false;
  }
}

function wholeNumber(description: string, min: number, max: number, example: number) {
  const expected = `a whole number from ${min} to ${max}, without quotes`;
  const error = (issue: { code: string; input?: unknown }) =>
    issue.code === "invalid_type" ? undefined : `${show(issue.input)} is not ${expected}.`;
  const schema = z.number().int({ error }).min(min, { error }).max(max, { error });
  return help(schema, description, expected, String(example));
}

const hours = (halfDay: string, start: string, end: string) =>
  group(
    "MeetingHours",
    {
      start: clockTime("When the first meeting may start (venue time).", start),
      end: clockTime("When the last meeting must have ended (venue time).", end),
    },
    `The ${halfDay} hours in which staff book meetings, in the venue's time zone.`,
  );

export const meetingsBlock = group(
  "ExpoMeetings",
  {
    days: list(
      isoDate(
        "A meeting day. The form's meeting times day1-… fall on the first day of this list, day2-… on the second, and so on.",
      ),
      "The days on which staff book meetings at the booth, in order.",
      'Write each as - "YYYY-MM-DD" on its own line.',
    ),
    morning: hours("morning", "09:00", "12:00"),
    afternoon: hours("afternoon", "13:00", "17:00"),
    lengthMinutes: wholeNumber("How long one meeting lasts, in minutes.", 10, 240, 30),
    timeZone: formattedText({
      description: "The venue's time zone, as named in the IANA time zone list.",
      expected: "a time zone name such as America/Los_Angeles or Europe/Berlin",
      example: "America/Los_Angeles",
      pattern: /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/,
      accept: isTimeZone,
      problem: (value) => `${show(value)} is not a time zone name.`,
    }),
    capacity: wholeNumber("How many meetings the booth holds at the same time.", 1, 50, 3),
  },
  "The meetings staff book from the link in their e-mail: days, hours, length, time zone, capacity.",
);
