import React from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import BookPage from "../pages/book";
import { bootBookingPage, type BookingCall, type BookingView } from "./booking-page";

const slot = (startsAt: string, halfDay: string, preferred = false) => ({
  startsAt,
  endsAt: new Date(Date.parse(startsAt) + 30 * 60_000).toISOString(),
  day: startsAt.slice(0, 10),
  halfDay,
  preferred,
});
const VIEW: BookingView = {
  request: {
    name: "Ana Pérez",
    organization: 'Valle, "Rápido"; Transit',
    email: "ana@vrt.example.org",
    preferredTime: "Day 2 Morning",
    messageStart: "Phone: Not provided",
  },
  meeting: null,
  timeZone: "America/Los_Angeles",
  venue: "Palm Springs Convention Center, Palm Springs, CA",
  booth: "713",
  eventName: "CTAA Expo 2025",
  slots: [
    slot("2025-05-20T16:00:00.000Z", "morning", true),
    slot("2025-05-20T16:30:00.000Z", "morning", true),
    slot("2025-05-19T20:00:00.000Z", "afternoon"),
  ],
};
type Answer = Awaited<ReturnType<BookingCall>>;

/** The built page's HTML, its script started with `answers` in place of the Edge Function. */
async function openPage(hash: string, answers: Answer[]) {
  const props = { data: { siteContent: { skipLinkLabel: "Skip" } } } as never;
  document.body.innerHTML = renderToStaticMarkup(React.createElement(BookPage, props));
  window.location.hash = hash;
  await new Promise((resolve) => setTimeout(resolve, 0)); // its hashchange, before the page opens
  const calls: Array<Record<string, string>> = [];
  bootBookingPage(document, async (body) => {
    calls.push(body);
    return answers.shift() ?? { status: 200, body: VIEW };
  });
  return calls;
}

it("opening the link only views: the request, then the free times, the preferred half-day first", async () => {
  const calls = await openPage("#k3y_-Abc", []);
  expect(await screen.findByText('Valle, "Rápido"; Transit')).toBeVisible();
  expect(calls).toEqual([{ token: "k3y_-Abc", action: "view" }]);
  expect(screen.getAllByRole("group").map((group) => group.firstChild!.textContent)).toEqual([
    "Tuesday, May 20, morning (preferred)",
    "Monday, May 19, afternoon",
  ]);
  expect(screen.getByRole("radio", { name: "9:30 AM" })).toBeInTheDocument();
  expect(screen.getByText("Free times (Pacific Daylight Time, the venue's time)")).toBeVisible();
  expect(screen.queryByRole("button", { name: "Cancel the meeting" })).toBeNull();
});

// Booking, moving and cancelling by the buttons, against the real Edge Function and its e-mails:
// e2e/tests/booking.spec.ts.
it("a booked request shows its meeting, offers to move it, and a press on cancel sends that, then shows it afresh", async () => {
  const meeting = { startsAt: VIEW.slots[1]!.startsAt, endsAt: VIEW.slots[1]!.endsAt };
  const calls = await openPage("#key", [{ status: 200, body: { ...VIEW, meeting } }]);
  const booked = "Booked for Tuesday, May 20, 9:30 AM to 10:00 AM Pacific Daylight Time.";
  expect(await screen.findByText(booked)).toBeVisible();
  expect(screen.getByRole("button", { name: "Move to this time" })).toBeEnabled();
  await userEvent.click(screen.getByRole("button", { name: "Cancel the meeting" }));
  await waitFor(() => expect(calls).toHaveLength(3));
  expect(calls.map(({ action }) => action)).toEqual(["view", "cancel", "view"]); // shown afresh
});

it("a refusal is shown as the function words it, and nothing is offered; no key, no call", async () => {
  const message = "This link has expired: the expo's last meeting day is over.";
  expect(await openPage("#old", [{ status: 410, body: { message } }])).toHaveLength(1);
  await waitFor(() => expect(screen.getByRole("status")).toHaveTextContent(message));
  expect(screen.queryByRole("button")).toBeNull();
  expect(await openPage("", [])).toEqual([]);
  expect(screen.getByRole("status")).toHaveTextContent(/no booking key/);
});
