/**
 * A visitor at a busy network address (the venue's Wi-Fi, issue 27): the address is past its
 * budget of one-by-one staff e-mails, yet the visitor gets the success toast like anyone, and
 * staff get the request, listed by name in the digest. Real browser, real backend, the real Edge
 * Function under Deno and the mail catcher.
 */
import { pageProofOverHttp } from "../../local-backend/test-support/helpers";
import { content } from "../support/content";
import { expect, test } from "../support/fixtures";
import { fillMeetingForm, meetingForm, toast, uniqueEmail } from "../support/form";

/** Requests other visitors at the same address sent just before (page-proved, from 127.0.0.1 like the browser). */
const EARLIER_REQUESTS = 20;

test("a visitor at an address past its budget gets the success toast, and staff get the request in the digest", async ({
  page,
  backend,
}) => {
  test.setTimeout(90_000);
  const running = await backend.restartWith({
    notifications: { catcher: { port: 0 }, sweepIntervalMs: 1_000, digestIntervalMs: 250 },
    // No wait between two digests: the test sees the one that lists the visitor at once.
    screening: { digest_interval_seconds: 0 },
  });
  for (let i = 0; i < EARLIER_REQUESTS; i += 1) {
    const response = await fetch(`${running.url}/rest/v1/contacts`, {
      method: "POST",
      headers: {
        apikey: running.anonKey,
        Authorization: `Bearer ${running.anonKey}`,
        "Content-Type": "application/json",
        "x-form-proof": await pageProofOverHttp(running.url, running.anonKey),
      },
      body: JSON.stringify({
        name: `Earlier Visitor ${i}`,
        email: uniqueEmail(`earlier${i}`),
        organization: "Expo Hall Wi-Fi",
        message: "Challenges/Questions: None provided",
      }),
    });
    expect(response.status).toBe(201);
  }

  const email = uniqueEmail("busy.venue");
  await page.goto("/");
  await meetingForm(page).fullName.click();
  await fillMeetingForm(page, {
    fullName: "Noor Haddad",
    organization: "Harbor Point Transit",
    email,
    challenges: "Can we see the dispatcher view at the booth?",
  });
  await meetingForm(page).submit.click();
  await expect(toast(page, content.meeting.successToast.title)).toBeVisible();

  const stored = await running.db.query<{ verdict: string; budget: string | null; status: string }>(
    `select s.verdict, s.budget, n.status from public.contacts c
       join public.contact_screening s on s.contact_id = c.id join public.contact_notifications n on n.contact_id = c.id
      where c.email = $1`,
    [email],
  );
  expect(stored.rows).toHaveLength(1);
  expect(stored.rows[0]!.budget).not.toBe("one-by-one");

  const catcher = running.notifier!.catcher!;
  await expect
    .poll(
      () =>
        catcher.messages.find((mail) => mail.body.includes(`<${email}>`))?.headers.get("subject") ??
        "",
      { timeout: 30_000 },
    )
    .toMatch(/^Held back: \d+ meeting requests?, \d+ sent through the page \(digest #\d+\)$/);
  const digest = catcher.messages.find((mail) => mail.body.includes(`<${email}>`))!;
  expect(digest.body).toContain(`Noor Haddad (Harbor Point Transit) <${email}>`);
  expect(digest.body).toContain("Can we see the dispatcher view at the booth?");
});
