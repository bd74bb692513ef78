/**
 * What the /book/ page calls with the staff e-mail's token. "view" only reads; "book", "move" and
 * "cancel" change the meeting in one transaction, then e-mail the prospect. Every refusal is a
 * 4xx with one sentence in `message`, which the page shows; a refused call books and sends nothing.
 */
import { z } from "zod";

import { sha256Hex } from "../notify-meeting-request/booking-links.ts";
import { loadConfig } from "../notify-meeting-request/config.ts";
import { restRpc } from "../notify-meeting-request/delivery-store.ts";
import { parseMailbox, type Mailbox, type StaffEmail } from "../notify-meeting-request/mail.ts";
import { sendMail } from "../notify-meeting-request/smtp.ts";
import { invitationEmail, type Change } from "./invitation.ts";
import * as schedules from "./schedule.ts";
import type { Schedule, Slot } from "./schedule.ts";

type StoredMeeting = Record<"uid" | "starts_at" | "ends_at", string> & { sequence: number };
type Texts = Record<"createdAt" | "name" | "organization" | "email" | "message", string>;
type Found = Texts & { id: number; meeting: StoredMeeting | null; booked: [string, string][] };
export type Lookup = { found: Found } | { unknown: true } | { limited: true };
export type Booking = {
  outcome: Change | "full" | "already-booked" | "not-booked" | "gone";
  meeting?: StoredMeeting;
};

/** The database's side (supabase/migrations/20261128000010_meetings.sql). */
export interface BookingStore {
  lookup(tokenHash: string, client: string): Promise<Lookup>;
  book(tokenHash: string, action: string, slot: Slot | null, capacity: number): Promise<Booking>;
}

export interface BookingDependencies {
  siteUrl: string;
  from: Mailbox;
  organizer: Mailbox;
  store: BookingStore;
  schedule: () => Promise<Schedule>;
  sendMail: (email: StaffEmail) => Promise<string>;
  /** BOOKING_NOW (schedule.ts, bookingNow); the real clock when unset. */
  now?: string;
  log?: (line: string) => void;
}

const token = z.string().max(200);
const call = z.discriminatedUnion("action", [
  z.object({ token, action: z.enum(["view", "cancel"]) }),
  z.object({ token, action: z.enum(["book", "move"]), startsAt: z.string() }),
]);

const YEAR_MS = 365 * 86_400_000;
const DONE: Record<Change, string> = {
  booked: "Booked for {when}; the invitation went to {email}.",
  moved: "Moved to {when}; the update went to {email}.",
  cancelled: "Cancelled the meeting on {when}; the cancellation went to {email}.",
};

export function createBookingHandler(deps: BookingDependencies) {
  const log = deps.log ?? ((line: string) => console.log(line));
  const origin = new URL(deps.siteUrl).origin;
  const cors = {
    "Access-Control-Allow-Origin": origin,
    "Access-Control-Allow-Headers": "authorization, x-client-info, apikey, content-type",
    "Access-Control-Allow-Methods": "POST, OPTIONS",
  };
  const json = (status: number, body: unknown) => Response.json(body, { status, headers: cors });
  const refuse = (status: number, message: string) => json(status, { message });

  return async (request: Request): Promise<Response> => {
    if (request.method === "OPTIONS") return new Response(null, { status: 204, headers: cors });
    const parsed = call.safeParse(await request.json().catch(() => undefined));
    if (!parsed.success)
      return refuse(400, "The booking page sent a call this function does not know.");
    try {
      return await answer(parsed.data, request.headers.get("x-forwarded-for"));
    } catch (error) {
      log(`The schedule or the database could not be reached: ${(error as Error).message}`);
      return refuse(503, "Could not reach the schedule or the database: try again in a minute.");
    }
  };

  async function answer(
    body: z.infer<typeof call>,
    forwardedFor: string | null,
  ): Promise<Response> {
    const schedule = await deps.schedule();
    const now = schedules.bookingNow(deps.now, schedule, new Date());
    const span = schedules.expoSpan(schedule);
    const tokenHash = sha256Hex(body.token);
    const client = forwardedFor?.split(",")[0]?.trim() ?? "";
    const lookup = await deps.store.lookup(tokenHash, client);
    if ("limited" in lookup)
      return refuse(429, "Too many wrong links from here: try again in an hour.");
    if ("unknown" in lookup)
      return refuse(404, "This link is not valid: open it again from the staff e-mail.");
    const found = lookup.found;
    const { timeZone, eventName } = schedule;
    const lastDay = schedules.venueFormat(timeZone, { dateStyle: "full" }).format(+span.to - 1);
    if (now >= span.to)
      return refuse(410, `This link expired when ${eventName} ended on ${lastDay}.`);
    if (Date.parse(found.createdAt) < span.from.getTime() - YEAR_MS)
      return refuse(410, `This link is for a request from before ${eventName}: it has expired.`);
    const when = (m: StoredMeeting) =>
      schedules.venueTimeText(new Date(m.starts_at), new Date(m.ends_at), timeZone);

    if (body.action === "view") {
      const option = schedules.preferredOption(schedule, found.message);
      const { name, organization, email, message } = found;
      const preferredTime = option?.label ?? null;
      const characters = [...message];
      const messageStart =
        characters.length > 200 ? `${characters.slice(0, 200).join("")}…` : message;
      return json(200, {
        request: { name, organization, email, preferredTime, messageStart },
        meeting: found.meeting && when(found.meeting),
        zone: schedules.zoneName(span.from, timeZone),
        ...{ venue: schedule.venue, booth: schedule.booth, eventName },
        slots: schedules.freeSlots(schedule, found.booked, now, option),
      });
    }

    let slot: Slot | null = null;
    if ("startsAt" in body) {
      const wanted = Date.parse(body.startsAt);
      slot = schedules.allSlots(schedule).find((s) => Date.parse(s.startsAt) === wanted) ?? null;
      if (!slot) return refuse(400, `That time is not one of ${eventName}'s meeting times.`);
      if (Date.parse(slot.startsAt) <= now.getTime())
        return refuse(400, "That time has passed: pick another.");
      if (found.meeting && Date.parse(found.meeting.starts_at) === wanted)
        return refuse(409, `Already booked for ${when(found.meeting)}.`);
    }
    const booking = await deps.store.book(tokenHash, body.action, slot, schedule.capacity);
    switch (booking.outcome) {
      case "gone":
        return refuse(404, "This request no longer exists.");
      case "full":
        return refuse(409, "That time was just taken: pick another.");
      case "already-booked":
        return refuse(409, `Already booked for ${when(booking.meeting!)}.`);
      case "not-booked":
        return refuse(409, "There is no meeting to move or cancel: book a time first.");
    }
    const stored = booking.meeting!;
    const change = booking.outcome;
    const invitee = { name: found.name, organization: found.organization, email: found.email };
    const [startsAt, endsAt] = [new Date(stored.starts_at), new Date(stored.ends_at)];
    const meeting = { ...stored, startsAt, endsAt };
    const { from, organizer } = deps;
    const invitation = { change, meeting, invitee, schedule, from, organizer, now: new Date() };
    const email = invitationEmail(invitation);
    let message = DONE[change].replace("{when}", when(stored)).replace("{email}", found.email);
    try {
      await deps.sendMail(email);
      log(`Request #${found.id}: ${change} (${stored.uid}, ${stored.sequence}), e-mail sent`);
    } catch (error) {
      log(`Request #${found.id}: ${change}, but the e-mail failed: ${(error as Error).message}`);
      message = `${message.replace(/;.*/, "")}, but the e-mail to ${found.email} could not be sent.`;
    }
    return json(200, { message });
  }
}

/** The handler wired to the real world: settings from the environment, the REST API, SMTP. */
export function bookingHandlerFromEnvironment(env: (name: string) => string | undefined) {
  const loaded = loadConfig(env);
  const config = loaded.ok ? loaded.config : undefined;
  const siteUrl = config?.siteUrl;
  const organizer = parseMailbox(env("BOOKING_ORGANIZER_EMAIL") ?? "") ?? config?.to[0];
  const now = env("BOOKING_NOW")?.trim() || undefined;
  const problems = loaded.ok ? [] : [...loaded.problems];
  if (config && !siteUrl) problems.push("SITE_URL is not set to the site's address (https://…)");
  if (now && now !== "expo-eve" && Number.isNaN(Date.parse(now)))
    problems.push("BOOKING_NOW is an ISO time or expo-eve (local runs only)");
  if (!config || !siteUrl || !organizer || problems.length > 0) {
    console.error(`book-meeting is not configured:\n  ${problems.join("\n  ")}`);
    return () =>
      Promise.resolve(Response.json({ message: "Booking is not set up yet." }, { status: 500 }));
  }
  if (now) console.log(`book-meeting: BOOKING_NOW=${now} (local only): not the real clock`);
  const rpc = restRpc(config.supabaseUrl, config.serviceKey);
  return createBookingHandler({
    siteUrl,
    from: config.from,
    organizer,
    now,
    sendMail: (email) => sendMail(config.smtp, email),
    schedule: () => schedules.fetchSchedule(siteUrl),
    store: {
      lookup: (token_hash, client) =>
        rpc("booking_lookup", { token_hash, client }) as Promise<Lookup>,
      book: (token_hash, action, slot, capacity) =>
        rpc("book_meeting", {
          ...{ token_hash, action, capacity },
          ...{ starts_at: slot?.startsAt ?? null, ends_at: slot?.endsAt ?? null },
        }) as Promise<Booking>,
    },
  });
}
