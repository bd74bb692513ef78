/**
 * The booking page's script (/book/#<key>, docs/booking.md), the only one the built page starts
 * (`booking-page` entry); src/pages/book.tsx runs it in `gatsby develop`. On open it asks the
 * book-meeting Edge Function to "view" the request (read-only): mail scanners open every link.
 * Book, move and cancel are posted only when a person presses a button.
 */

/** A free time, its half-day and start as text in the venue's zone: "Tuesday, May 20, morning". */
type Slot = Record<"startsAt" | "group" | "time", string> & { preferred: boolean };
type BookingView = {
  request: Record<"name" | "organization" | "email" | "messageStart", string> & {
    preferredTime: string | null;
  };
  meeting: string | null;
  slots: Slot[];
} & Record<"zone" | "venue" | "booth" | "eventName", string>;
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

/** The free times as radio buttons, one group per half-day in the order given (preferred first). */
function slotGroups(slots: Slot[]): HTMLFieldSetElement[] {
  const groups = new Map<string, HTMLFieldSetElement>();
  for (const slot of slots) {
    let group = groups.get(slot.group);
    if (!group) {
      group = document.createElement("fieldset");
      const preferred = slot.preferred ? " (preferred)" : "";
      group.appendChild(document.createElement("legend")).textContent = slot.group + preferred;
      groups.set(slot.group, group);
    }
    const label = group.appendChild(document.createElement("label"));
    const radio = Object.assign(label.appendChild(document.createElement("input")), {
      type: "radio",
      name: "startsAt",
      value: slot.startsAt,
      required: true,
    });
    radio.after(slot.time);
  }
  return [...groups.values()];
}

/** The parts of the page (src/pages/book.tsx) by id: booking-where, booking-status… */
type Part = "where" | "status" | "request" | "details" | "form" | "meeting" | "zone" | "slots";
const part = (name: Part | "submit" | "cancel") => document.getElementById(`booking-${name}`)!;

function show(view: BookingView): void {
  const { request, meeting } = view;
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
  part("zone").textContent = `Free times (${view.zone}, the venue's time)`;
  part("meeting").textContent = meeting
    ? `Booked for ${meeting}.`
    : "Not booked yet: pick a time and press the button.";
  const groups = slotGroups(view.slots);
  part("slots").replaceChildren(...groups);
  if (groups.length === 0) part("slots").textContent = "No free times are left on the expo days.";
  part("submit").textContent = meeting ? "Move to this time" : "Book this time";
  part("submit").hidden = groups.length === 0;
  part("cancel").hidden = !meeting;
  part("request").hidden = part("form").hidden = false;
}

/** Starts the page: one "view" now (and when the fragment changes); every other call is a press. */
export function bootBookingPage(): void {
  const form = part("form") as HTMLFormElement | null;
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
