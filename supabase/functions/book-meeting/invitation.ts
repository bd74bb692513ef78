/**
 * The invitation the prospect gets when staff book, move or cancel: an iCalendar REQUEST (or
 * CANCEL) from ical-generator as nodemailer's `icalEvent`, the time and place in the text and
 * HTML too (Gmail may not add an invitation from an unknown sender). The staff mailbox, the
 * ORGANIZER, gets the same message. Pure. Typed text arrives as typed: escaped by ical-generator,
 * RFC 6868 in the CN (ical-generator's `\"` no reader decodes), mail.ts's rules in To.
 */
import ical, {
  ICalAttendeeRole,
  ICalAttendeeStatus,
  ICalCalendarMethod,
  ICalEventStatus,
} from "ical-generator";

import { escapeHtml, staffEmail, visible, type Mailbox } from "../notify-meeting-request/mail.ts";
import { venueTimeText, type Schedule } from "./schedule.ts";

export type Change = "booked" | "moved" | "cancelled";

export interface Invitation {
  change: Change;
  meeting: { uid: string; sequence: number; startsAt: Date; endsAt: Date };
  invitee: Record<"name" | "organization" | "email", string>;
  schedule: Schedule;
  from: Mailbox;
  organizer: Mailbox;
  now: Date;
}

/** A parameter value as RFC 6868 writes it (^^, ^' and ^n), after the control characters are shown. */
const parameter = (text: string) =>
  visible(text)
    .replace(/\^/g, "^^")
    .replace(/"/g, "^'")
    .replace(/\r\n|\r|\n|\u2028|\u2029/g, "^n");

export function place(schedule: Schedule): string {
  return `${schedule.venue}, booth ${schedule.booth}`;
}

export function calendar(invitation: Invitation): string {
  const { change, meeting, invitee, schedule, organizer, now } = invitation;
  const cancelled = change === "cancelled";
  const cal = ical({
    prodId: { company: "Expo website", product: "book-meeting", language: "EN" },
    method: cancelled ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST,
  });
  cal.createEvent({
    id: meeting.uid,
    sequence: meeting.sequence,
    stamp: now,
    start: meeting.startsAt,
    end: meeting.endsAt,
    summary: `Meeting at ${schedule.eventName}, booth ${schedule.booth}`,
    description: visible(`${invitee.name} (${invitee.organization}) meets us at the booth.`),
    location: place(schedule),
    status: cancelled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    organizer: { name: parameter(organizer.name ?? organizer.address), email: organizer.address },
    attendees: [
      {
        name: parameter(invitee.name),
        email: invitee.email,
        role: ICalAttendeeRole.REQ,
        status: ICalAttendeeStatus.NEEDSACTION,
        rsvp: !cancelled,
      },
    ],
  });
  return cal.toString();
}

/** The subject's first word and the opening, by change. */
const WORDS: Record<Change, [string, string]> = {
  booked: ["Invitation", "is booked"],
  moved: ["Updated invitation", "has moved to a new time"],
  cancelled: ["Cancelled", "is cancelled"],
};

/** The e-mail to the prospect, the staff mailbox copied. */
export function invitationEmail(invitation: Invitation) {
  const { change, meeting, invitee, schedule, organizer } = invitation;
  const when = venueTimeText(meeting.startsAt, meeting.endsAt, schedule.timeZone);
  const [subject, happened] = WORDS[change];
  const opening = `Your meeting at ${schedule.eventName} ${happened}.`;
  const who = visible(`${invitee.name} (${invitee.organization})`);
  const rows: [string, string][] = [
    ["When", when],
    ["Where", place(schedule)],
    ["Who", who],
    ["With", organizer.name ?? organizer.address],
  ];
  const closing =
    change === "cancelled"
      ? "Your calendar removes the event when you open the attached cancellation."
      : "The calendar invitation is attached. Reply to this e-mail to reach us.";
  const lines = rows.map(([label, value]) => `${`${label}:`.padEnd(7)}${value}`);
  const html = [
    `<p>${escapeHtml(opening)}</p>`,
    `<table>${rows.map(([label, value]) => `<tr><th align="left">${label}</th><td>${escapeHtml(value)}</td></tr>`).join("")}</table>`,
    `<p>${escapeHtml(closing)}</p>`,
  ].join("\n");
  const content = {
    subject: `${subject}: ${schedule.eventName}, booth ${schedule.booth}, ${when}`,
    text: [opening, "", ...lines, "", closing, ""].join("\n"),
    html,
    messageIdLocalPart: `meeting-${meeting.uid}-${meeting.sequence}`,
    replyTo: organizer,
  };
  const to = [{ name: invitee.name, address: invitee.email }, organizer];
  return {
    ...staffEmail(content, { from: invitation.from, to }, invitation.now),
    icalEvent: {
      method: change === "cancelled" ? "CANCEL" : "REQUEST",
      filename: change === "cancelled" ? "cancel.ics" : "invite.ics",
      content: calendar(invitation),
    },
  };
}
