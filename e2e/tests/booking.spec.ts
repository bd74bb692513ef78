/**
 * The booking loop, end to end: a visitor's request, the staff e-mail (names as typed, the
 * visitor's words, the link), the booking page at 390 px by keyboard, and the invitations the
 * prospect gets, parsed with ical.js. The real browser, the real backend, both Edge Functions
 * under Deno and the mail catcher (docs/booking.md).
 */
import type { Page } from "@playwright/test";
import type { LocalBackend } from "../../local-backend";
import { calendarPart } from "../../supabase/functions/book-meeting/test-support/fixtures.ts";
import { axeViolations } from "../support/axe";
import { expect, test } from "../support/fixtures";
import { answers, fillMeetingForm, meetingForm, submitAndSucceed } from "../support/form";

const SITE = process.env.E2E_BASE_URL!;
const ZONE = "America/Los_Angeles";
// Commas, semicolons, quotes, non-ASCII and an encoded word's look: they must arrive as typed.
const NAME = 'Zoë "Zee" O\'Neil, Jr.; =?utf-8?q?Hi?=';
const ORGANIZATION = 'Transporte Rápido; "Norte", S.A.';

type Catcher = NonNullable<NonNullable<LocalBackend["notifier"]>["catcher"]>;

/** The invitation caught after the first `before` messages: its e-mail and its one VEVENT. */
async function invitation(catcher: Catcher, email: string, before: number) {
  const mail = (await catcher.waitFor(before + 1, 20_000))[before]!;
  expect(mail.to).toContain(email);
  expect(mail.to, "staff get the same event").toHaveLength(2);
  return { mail, ...(await calendarPart(mail.raw)) };
}

const venueClock = (date: Date) =>
  new Intl.DateTimeFormat("en-US", { timeZone: ZONE, dateStyle: "full", timeStyle: "short" })
    .format(date)
    .replace(/\u202f/g, " ");

async function pressToBook(page: Page, slot: RegExp, button: string) {
  await page.getByRole("radio", { name: slot }).first().check();
  await page.getByRole("button", { name: button }).click();
}

test("a request becomes a booked meeting from the staff e-mail: book, a second press, move, cancel", async ({
  page,
  backend,
  diagnostics,
}) => {
  test.setTimeout(120_000);
  diagnostics.allowErrors(/status of (404|409)/);
  // Staff e-mails go to a mail catcher, with SITE_URL at the served build.
  const running = await backend.restartWith({
    catcher: { port: 0 },
    sweepIntervalMs: 1_000,
    functionEnv: { SITE_URL: SITE },
  });
  const catcher = running.notifier!.catcher!;
  const meetings = async () =>
    (await running.db.query("select * from public.meetings where cancelled_at is null")).rows;

  // 1. A visitor submits, preferring Day 2 Morning.
  const input = answers("booking", {
    fullName: NAME,
    organization: ORGANIZATION,
    meetingTime: "day2-morning",
    challenges: "Can we see the dispatcher view at the booth?",
  });
  await page.goto("/");
  await meetingForm(page).fullName.click();
  await fillMeetingForm(page, input);
  await submitAndSucceed(page);

  // 2. The staff e-mail names the visitor as typed, says what they wrote and carries the link;
  // the prospect got nothing.
  const [staffMail] = await catcher.waitFor(1);
  expect(staffMail!.headers.get("subject")).toBe(`Meeting request: ${NAME} (${ORGANIZATION})`);
  expect(staffMail!.replyTo).toBe(input.email);
  expect(staffMail!.body).toContain(input.challenges);
  const link = new RegExp(`${SITE}/book/#[A-Za-z0-9_-]{43}`).exec(staffMail!.body)?.[0];
  expect(link, "SITE_URL/book/#<token> in the staff e-mail").toBeDefined();
  expect(catcher.messages.every((mail) => !mail.to.includes(input.email))).toBe(true);

  // 3. A plain GET of the link (a mail scanner) changes nothing, and the page is not for indexing.
  const sent = catcher.messages.length;
  const response = await page.request.get(link!);
  expect(response.status()).toBe(200);
  expect(response.headers()["x-robots-tag"]).toContain("noindex");
  expect(await response.text()).toContain('content="noindex');
  const sitemap = await (await page.request.get("/sitemap-0.xml")).text();
  expect(sitemap).toContain("<loc>");
  expect(sitemap, "not in the sitemap").not.toContain("/book/");

  // 4. Staff open it on a phone: the request and the free times in the venue's zone, the
  // preferred half-day first; opening it books nothing. They book by keyboard.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(link!);
  await expect(page.getByText(ORGANIZATION, { exact: true })).toBeVisible();
  await expect(page.getByText(NAME, { exact: true })).toBeVisible();
  for (const text of [input.email, "Day 2 Morning", "Phone: Not provided"])
    await expect(page.locator("#booking-details")).toContainText(text);
  await expect(
    page.getByText("Free times (Pacific Daylight Time, the venue's time)"),
  ).toBeVisible();
  const groups = page.locator("#booking-slots legend");
  await expect(groups.first()).toHaveText("Tuesday, May 20, morning (preferred)");
  await expect(page.getByRole("button", { name: "Cancel the meeting" })).toBeHidden();
  expect(await axeViolations(page)).toEqual([]);
  const stale = await page.context().newPage(); // a colleague's tab, opened before the booking
  await stale.goto(link!);
  await expect(stale.getByRole("button", { name: "Book this time" })).toBeVisible();
  expect(await meetings()).toEqual([]);
  expect(catcher.messages).toHaveLength(sent);

  const radio = page.getByRole("radio", { name: "9:00 AM" }).first();
  for (let tabs = 0; tabs < 20; tabs += 1) {
    if (await radio.evaluate((element) => element === document.activeElement)) break;
    await page.keyboard.press("Tab");
  }
  await page.keyboard.press("Space");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Book this time" })).toBeFocused();
  await page.keyboard.press("Enter");
  const status = page.getByRole("status");
  const tuesday = "Tuesday, May 20, 2025, 9:00 – 9:30 AM Pacific Daylight Time";
  await expect(status).toHaveText(`Booked for ${tuesday}; the invitation went to ${input.email}.`);
  await expect(page.locator("#booking-meeting")).toHaveText(`Booked for ${tuesday}.`);
  await expect(page.getByRole("button", { name: "Move to this time" })).toBeVisible();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, "no sideways scrolling at 390 px, long addresses included").toBe(390);

  // 5. The invitation: right date, time, zone, place and attendees, names as typed (its MIME
  // parts and texts: supabase/functions/book-meeting/invitation.test.ts).
  const booked = await invitation(catcher, input.email, sent);
  expect(booked.method).toBe("REQUEST");
  const start = booked.event.startDate.toJSDate();
  expect(venueClock(start)).toBe("Tuesday, May 20, 2025 at 9:00 AM");
  expect(booked.event.endDate.toJSDate().getTime() - start.getTime()).toBe(30 * 60_000);
  expect(booked.event.location).toBe("Palm Springs Convention Center, Palm Springs, CA, booth 713");
  const [attendee] = booked.event.attendees;
  expect(attendee!.getFirstValue()).toMatch(new RegExp(`^mailto:${input.email}$`, "i"));
  expect(attendee!.getParameter("cn")).toBe(NAME);
  expect(booked.event.organizer).toMatch(/^mailto:meetings@/i);
  expect(await meetings()).toHaveLength(1);

  // 6. A second press, from the colleague's tab: already booked, nothing sent.
  await pressToBook(stale, /AM|PM/, "Book this time");
  await expect(stale.getByRole("status")).toContainText("Already booked for");
  await page.waitForTimeout(1_500);
  expect(catcher.messages).toHaveLength(sent + 1);
  expect(await meetings()).toHaveLength(1);

  // 7. Moving sends an update: the same UID, a higher SEQUENCE, the new time.
  await pressToBook(page, /^1:00 PM$/, "Move to this time");
  const monday = "Monday, May 19, 2025, 1:00 – 1:30 PM Pacific Daylight Time";
  await expect(status).toHaveText(`Moved to ${monday}; the update went to ${input.email}.`);
  const moved = await invitation(catcher, input.email, sent + 1);
  expect(moved.mail.headers.get("subject")).toMatch(/^Updated invitation: /);
  expect(moved.method).toBe("REQUEST");
  expect(moved.event.uid).toBe(booked.event.uid);
  expect(moved.event.sequence).toBeGreaterThan(booked.event.sequence);
  expect(venueClock(moved.event.startDate.toJSDate())).toMatch(/at 1:00 PM$/);

  // 8. Cancelling sends a cancellation of the same event.
  await page.getByRole("button", { name: "Cancel the meeting" }).click();
  const cancelledOn = `Cancelled the meeting on ${monday}; the cancellation went to ${input.email}.`;
  await expect(status).toHaveText(cancelledOn);
  const cancelled = await invitation(catcher, input.email, sent + 2);
  expect(cancelled.mail.headers.get("subject")).toMatch(/^Cancelled: /);
  expect(cancelled.method).toBe("CANCEL");
  expect(cancelled.event.component.getFirstPropertyValue("status")).toBe("CANCELLED");
  expect(cancelled.event.uid).toBe(booked.event.uid);
  expect(cancelled.event.sequence).toBeGreaterThan(moved.event.sequence);
  await expect(page.getByRole("button", { name: "Book this time" })).toBeVisible();
  expect(await meetings()).toEqual([]);

  // A wrong key is refused in the function's words, and nothing is offered; no key, no call.
  await page.goto(`${SITE}/book/#${"x".repeat(43)}`);
  await expect(status).toHaveText("This link is not valid: open it again from the staff e-mail.");
  await expect(page.locator("#booking-form")).toBeHidden();
  await page.goto(`${SITE}/book/`);
  await expect(status).toHaveText(/has no booking key/);
  expect(catcher.messages, "one e-mail per change, none for a refusal").toHaveLength(sent + 3);
});
