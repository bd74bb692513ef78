/**
 * The booking page's script (/book/, docs/booking.md): the `booking-page` entry, the only script
 * the built page starts (build-time/page-scripts.ts); src/pages/book.tsx runs it in `gatsby
 * develop`. It reads the link's key from the fragment and asks the book-meeting Edge Function for
 * the request and its free times ("view", read-only). Book, move and cancel are posted only when
 * a person presses a button: mail scanners open every link, and opening one changes nothing.
 */

/** The ids the page's HTML (src/pages/book.tsx) gives the parts this script fills. */
export const BOOKING = {
  where: "booking-where",
  status: "booking-status",
  request: "booking-request",
  details: "booking-details",
  form: "booking-form",
  meeting: "booking-meeting",
  zone: "booking-zone",
  slots: "booking-slots",
  submit: "booking-submit",
  cancel: "booking-cancel",
} as const;

type Times = { startsAt: string; endsAt: string };
export type Slot = Times & { day: string; halfDay: "morning" | "afternoon"; preferred: boolean };
export type BookingView = {
  request: {
    name: string;
    organization: string;
    email: string;
    preferredTime: string | null;
    messageStart: string;
  };
  meeting: Times | null;
  timeZone: string;
  venue: string;
  booth: string;
  eventName: string;
  slots: Slot[];
};
type Answer = { status: number; body: Partial<BookingView> & { message?: string } };
export type BookingCall = (body: Record<string, string>) => Promise<Answer>;

const UNREACHABLE =
  "The booking service could not be reached: check the connection and press the button again.";

/** POSTs to the book-meeting Edge Function as any Supabase client does (the anon key). */
export function bookingCall(
  url = process.env.GATSBY_SUPABASE_URL ?? "",
  anonKey = process.env.GATSBY_SUPABASE_ANON_KEY ?? "",
): BookingCall {
  return async (body) => {
    try {
      const response = await fetch(`${url}/functions/v1/book-meeting`, {
        method: "POST",
        headers: {
          apikey: anonKey,
          Authorization: `Bearer ${anonKey}`,
          "Content-Type": "application/json",
        },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as Answer["body"] };
    } catch {
      return { status: 0, body: { message: UNREACHABLE } };
    }
  };
}

/** "Tuesday, May 20, 9:30 AM", in the venue's zone; `zoneName` adds "Pacific Daylight Time". */
export function venueTime(iso: string, timeZone: string, parts: "day" | "time" | "both") {
  const options: Intl.DateTimeFormatOptions = { timeZone };
  if (parts !== "time") Object.assign(options, { weekday: "long", month: "long", day: "numeric" });
  if (parts !== "day") Object.assign(options, { hour: "numeric", minute: "2-digit" });
  return new Intl.DateTimeFormat("en-US", options).format(new Date(iso));
}

export function zoneName(iso: string, timeZone: string): string {
  const parts = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "long" });
  return parts.formatToParts(new Date(iso)).find((part) => part.type === "timeZoneName")!.value;
}

/** The free times, one group per half-day in the order given (the preferred half-day first). */
function slotGroups(doc: Document, view: BookingView): HTMLElement[] {
  const groups = new Map<string, Slot[]>();
  for (const slot of view.slots) {
    const key = `${slot.day} ${slot.halfDay}`;
    groups.set(key, [...(groups.get(key) ?? []), slot]);
  }
  return [...groups.values()].map((slots) => {
    const [first] = slots as [Slot];
    const fieldset = doc.createElement("fieldset");
    const legend = fieldset.appendChild(doc.createElement("legend"));
    legend.textContent = `${venueTime(first.startsAt, view.timeZone, "day")}, ${first.halfDay}${first.preferred ? " (preferred)" : ""}`;
    for (const slot of slots) {
      const label = fieldset.appendChild(doc.createElement("label"));
      const input = label.appendChild(doc.createElement("input"));
      Object.assign(input, {
        type: "radio",
        name: "startsAt",
        value: slot.startsAt,
        required: true,
      });
      label.append(venueTime(slot.startsAt, view.timeZone, "time"));
    }
    return fieldset;
  });
}

function show(doc: Document, view: BookingView): void {
  const byId = (id: string) => doc.getElementById(id)!;
  const { request, meeting, timeZone } = view;
  byId(BOOKING.where).textContent = `${view.eventName} · Booth ${view.booth} · ${view.venue}`;
  const details = byId(BOOKING.details);
  details.replaceChildren();
  const rows: Array<[string, string]> = [
    ["Name", request.name],
    ["Organization", request.organization],
    ["E-mail", request.email],
    ["Preferred time", request.preferredTime ?? "Not specified"],
    ["Message", request.messageStart],
  ];
  for (const [term, value] of rows) {
    details.appendChild(doc.createElement("dt")).textContent = term;
    details.appendChild(doc.createElement("dd")).textContent = value;
  }
  const zone = zoneName(
    meeting?.startsAt ?? view.slots[0]?.startsAt ?? new Date().toISOString(),
    timeZone,
  );
  byId(BOOKING.zone).textContent = `Free times (${zone}, the venue's time)`;
  byId(BOOKING.meeting).textContent = meeting
    ? `Booked for ${venueTime(meeting.startsAt, timeZone, "both")} to ${venueTime(meeting.endsAt, timeZone, "time")} ${zone}.`
    : "Not booked yet: pick a time and press the button.";
  const slots = byId(BOOKING.slots);
  const groups = slotGroups(doc, view);
  if (groups.length > 0) slots.replaceChildren(...groups);
  else slots.textContent = "No free times are left on the expo days.";
  byId(BOOKING.submit).textContent = meeting ? "Move to this time" : "Book this time";
  byId(BOOKING.submit).hidden = groups.length === 0;
  byId(BOOKING.cancel).hidden = !meeting;
  byId(BOOKING.request).hidden = false;
  byId(BOOKING.form).hidden = false;
}

/** Starts the page: one "view" now (and when the fragment changes); every other call is a press. */
export function bootBookingPage(doc: Document = document, call: BookingCall = bookingCall()): void {
  const form = doc.getElementById(BOOKING.form) as HTMLFormElement | null;
  if (!form || form.dataset.live) return;
  form.dataset.live = "true";
  const byId = (id: string) => doc.getElementById(id)!;
  const status = byId(BOOKING.status);
  const token = () => doc.location.hash.slice(1).trim();
  let booked = false;

  /** Shows the request and its free times; `message` stays in the live region either way. */
  const view = async (message?: string) => {
    if (!form.isConnected) return; // a page left in `gatsby develop`
    if (!token()) {
      status.textContent = "This link has no booking key: open it again from the staff e-mail.";
      return;
    }
    const { status: code, body } = await call({ token: token(), action: "view" });
    if (!form.isConnected) return;
    if (code === 200 && body.request) {
      booked = Boolean(body.meeting);
      show(doc, body as BookingView);
      status.textContent = message ?? "";
    } else {
      byId(BOOKING.request).hidden = byId(BOOKING.form).hidden = true;
      status.textContent = message ?? body.message ?? UNREACHABLE;
    }
  };

  const press = async (body: Record<string, string>) => {
    const buttons = [byId(BOOKING.submit), byId(BOOKING.cancel)] as HTMLButtonElement[];
    buttons.forEach((button) => (button.disabled = true));
    form.setAttribute("aria-busy", "true");
    status.textContent = "Sending…";
    const answer = await call({ token: token(), ...body });
    await view(answer.body.message ?? UNREACHABLE);
    form.setAttribute("aria-busy", "false");
    buttons.forEach((button) => (button.disabled = false));
  };

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const startsAt = new FormData(form).get("startsAt");
    if (typeof startsAt === "string") void press({ action: booked ? "move" : "book", startsAt });
  });
  byId(BOOKING.cancel).addEventListener("click", () => void press({ action: "cancel" }));
  doc.defaultView?.addEventListener("hashchange", () => void view());
  void view();
}
