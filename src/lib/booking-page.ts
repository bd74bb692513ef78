/**
 * The booking page's script (/book/#<key>, docs/booking.md), the only one the built page starts
 * (`booking-page` entry); src/pages/book.tsx runs it in `gatsby develop`. On open it asks the
 * book-meeting Edge Function to "view" the request (read-only): mail scanners open every link.
 * Book, move and cancel are posted only when a person presses a button.
 */

/** The parts of the page (src/pages/book.tsx) this script fills, by id. */
type Part = "where" | "status" | "request" | "details" | "form" | "meeting" | "zone" | "slots";
export const bookingId = (part: Part | "submit" | "cancel") => `booking-${part}`;

type Times = { startsAt: string; endsAt: string };
type Slot = Times & { day: string; halfDay: string; preferred: boolean };
type BookingView = {
  request: Record<"name" | "organization" | "email" | "messageStart", string> & {
    preferredTime: string | null;
  };
  meeting: Times | null;
  slots: Slot[];
} & Record<"timeZone" | "venue" | "booth" | "eventName", string>;
type Answer = { status: number; body: Partial<BookingView> & { message?: string } };

const UNREACHABLE = "The booking service could not be reached: check the connection, try again.";

/** POSTs to the book-meeting Edge Function as any Supabase client does (the anon key). */
async function call(body: Record<string, string>): Promise<Answer> {
  const url = process.env.GATSBY_SUPABASE_URL ?? "";
  const anonKey = process.env.GATSBY_SUPABASE_ANON_KEY ?? "";
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
}

/** "Tuesday, May 20", "9:30 AM" or "Pacific Daylight Time" of a moment, in the venue's zone. */
function venue(iso: string, timeZone: string, part: "day" | "time" | "zone"): string {
  const options: Record<typeof part, Intl.DateTimeFormatOptions> = {
    day: { weekday: "long", month: "long", day: "numeric" },
    time: { hour: "numeric", minute: "2-digit" },
    zone: { timeZoneName: "long" },
  };
  const format = new Intl.DateTimeFormat("en-US", { timeZone, ...options[part] });
  if (part !== "zone") return format.format(new Date(iso));
  return format.formatToParts(new Date(iso)).find((p) => p.type === "timeZoneName")!.value;
}

/** The free times as radio buttons, one group per half-day in the order given (preferred first). */
function slotGroups({ slots, timeZone }: BookingView): HTMLFieldSetElement[] {
  const groups = new Map<string, HTMLFieldSetElement>();
  for (const slot of slots) {
    let group = groups.get(`${slot.day} ${slot.halfDay}`);
    if (!group) {
      group = document.createElement("fieldset");
      const preferred = slot.preferred ? " (preferred)" : "";
      group.appendChild(document.createElement("legend")).textContent =
        `${venue(slot.startsAt, timeZone, "day")}, ${slot.halfDay}${preferred}`;
      groups.set(`${slot.day} ${slot.halfDay}`, group);
    }
    const label = group.appendChild(document.createElement("label"));
    const radio = Object.assign(label.appendChild(document.createElement("input")), {
      type: "radio",
      name: "startsAt",
      value: slot.startsAt,
      required: true,
    });
    radio.after(venue(slot.startsAt, timeZone, "time"));
  }
  return [...groups.values()];
}

const part = (name: Parameters<typeof bookingId>[0]) => document.getElementById(bookingId(name))!;

function show(view: BookingView): void {
  const { request, meeting, timeZone } = view;
  part("where").textContent = `${view.eventName} · Booth ${view.booth} · ${view.venue}`;
  part("details").replaceChildren(
    ...Object.entries({
      Name: request.name,
      Organization: request.organization,
      "E-mail": request.email,
      "Preferred time": request.preferredTime ?? "Not specified",
      Message: request.messageStart,
    }).flatMap(([term, value]) =>
      [term, value].map((text, i) =>
        Object.assign(document.createElement(i ? "dd" : "dt"), { textContent: text }),
      ),
    ),
  );
  const zone = venue(
    meeting?.startsAt ?? view.slots[0]?.startsAt ?? new Date().toISOString(),
    timeZone,
    "zone",
  );
  part("zone").textContent = `Free times (${zone}, the venue's time)`;
  part("meeting").textContent = meeting
    ? `Booked for ${venue(meeting.startsAt, timeZone, "day")}, ${venue(meeting.startsAt, timeZone, "time")} to ${venue(meeting.endsAt, timeZone, "time")} ${zone}.`
    : "Not booked yet: pick a time and press the button.";
  const groups = slotGroups(view);
  part("slots").replaceChildren(...groups);
  if (groups.length === 0) part("slots").textContent = "No free times are left on the expo days.";
  part("submit").textContent = meeting ? "Move to this time" : "Book this time";
  part("submit").hidden = groups.length === 0;
  part("cancel").hidden = !meeting;
  part("request").hidden = part("form").hidden = false;
}

/** Starts the page: one "view" now (and when the fragment changes); every other call is a press. */
export function bootBookingPage(): void {
  const form = document.getElementById(bookingId("form")) as HTMLFormElement | null;
  if (!form || form.dataset.live) return;
  form.dataset.live = "true";
  const token = () => location.hash.slice(1).trim();
  let booked = false;

  /** Shows the request and its free times, or why not; `message` goes to the live region. */
  const view = async (message?: string) => {
    if (!form.isConnected) return; // a page left in `gatsby develop`
    const answer = token()
      ? await call({ token: token(), action: "view" })
      : {
          status: 400,
          body: { message: "This link has no booking key: open it again from the e-mail." },
        };
    if (!form.isConnected) return;
    const ok = answer.status === 200 && answer.body.request !== undefined;
    if (ok) show(answer.body as BookingView);
    else part("request").hidden = form.hidden = true;
    booked = ok && Boolean(answer.body.meeting);
    part("status").textContent = message ?? (ok ? "" : (answer.body.message ?? UNREACHABLE));
  };

  const press = async (body: Record<string, string>) => {
    const buttons = [part("submit"), part("cancel")] as HTMLButtonElement[];
    buttons.forEach((button) => (button.disabled = true));
    form.setAttribute("aria-busy", "true");
    part("status").textContent = "Sending…";
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
  part("cancel").addEventListener("click", () => void press({ action: "cancel" }));
  addEventListener("hashchange", () => void view());
  void view();
}
