/**
 * What staff receive, end to end: the real browser, the real backend, the real Edge Function
 * under Deno and the mail catcher.
 */
import { pageProofOverHttp } from "../../local-backend/test-support/helpers";
import { expect, test } from "../support/fixtures";
import {
  answers,
  fillMeetingForm,
  meetingForm,
  submitAndSucceed,
  uniqueEmail,
} from "../support/form";
import { mailContaining, startWithMailCatcher } from "../support/staff-mail";

/** Requests other visitors at the same address sent just before (page-proved, from 127.0.0.1 like the browser). */
const EARLIER_REQUESTS = 20;

test("a visitor at a busy address (the venue's Wi-Fi), past its budget of one-by-one e-mails, gets the success toast, and staff get the request in the digest", async ({
  page,
  backend,
}) => {
  test.setTimeout(90_000);
  // No wait between two digests: the test sees the one that lists the visitor at once.
  const { running, catcher } = await startWithMailCatcher(backend, { digest_interval_seconds: 0 });
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

  const input = answers("busy.venue", {
    fullName: "Noor Haddad",
    organization: "Harbor Point Transit",
    challenges: "Can we see the dispatcher view at the booth?",
  });
  await page.goto("/");
  await meetingForm(page).fullName.click();
  await fillMeetingForm(page, input);
  await submitAndSucceed(page);

  const stored = await running.db.query<{ budget: string | null }>(
    `select s.budget from public.contacts c
       join public.contact_screening s on s.contact_id = c.id
       join public.contact_notifications n on n.contact_id = c.id
      where c.email = $1`,
    [input.email],
  );
  expect(stored.rows).toHaveLength(1);
  expect(stored.rows[0]!.budget).not.toBe("one-by-one");

  const digest = await mailContaining(catcher, `<${input.email}>`);
  expect(digest.headers.get("subject")).toMatch(
    /^Held back: \d+ meeting requests?, \d+ sent through the page \(digest #\d+\)$/,
  );
  expect(digest.body).toContain(`Noor Haddad (Harbor Point Transit) <${input.email}>`);
  expect(digest.body).toContain("Can we see the dispatcher view at the booth?");
});
