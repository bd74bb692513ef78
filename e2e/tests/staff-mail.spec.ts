/**
 * What staff receive, end to end: the real browser, the real backend, the real Edge Function
 * under Deno and the mail catcher. Budgets and digests past them are proven through HTTP in
 * local-backend/notifications/screening-notify.test.ts and in supabase/tests/.
 */
import { expect, test } from "../support/fixtures";
import { answers, fillMeetingForm, meetingForm, submitAndSucceed } from "../support/form";
import { mailContaining, startWithMailCatcher } from "../support/staff-mail";

test("a request sent from the page reaches staff as an e-mail that names the visitor and says what they wrote", async ({
  page,
  backend,
}) => {
  test.setTimeout(60_000);
  const { catcher } = await startWithMailCatcher(backend);
  const input = answers("staff.mail", {
    fullName: "Noor Haddad",
    organization: "Harbor Point Transit",
    challenges: "Can we see the dispatcher view at the booth?",
  });
  await page.goto("/");
  await meetingForm(page).fullName.click();
  await fillMeetingForm(page, input);
  await submitAndSucceed(page);

  const mail = await mailContaining(catcher, input.email);
  expect(mail.headers.get("subject")).toBe("Meeting request: Noor Haddad (Harbor Point Transit)");
  expect(mail.headers.get("reply-to")).toContain(input.email);
  expect(mail.body).toContain("Can we see the dispatcher view at the booth?");
});
