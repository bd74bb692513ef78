/**
 * The meeting form while the page starts. The HTML holds the whole form and the scripts come
 * later, so a visitor can type, and even tap the button, before they arrive: nothing they give
 * may be lost, and the form must never submit natively (that would put the answers in a URL and
 * store nothing). What the submit needs (the way to Supabase, the page proof) is made ready when
 * the visitor reaches the form, not while the page starts.
 */
import type { Page, Request } from "@playwright/test";
import { containsSupabaseJs } from "../../tools/lib/budgets";
import { content } from "../support/content";
import { expect, test } from "../support/fixtures";
import {
  everyAnswer,
  expectStored,
  fillMeetingForm,
  meetingForm,
  openForm,
  submitAndSucceed,
  toast,
  uniqueEmail,
} from "../support/form";
import { holdRequests, pageBootHasRun } from "../support/page";

const { form: words, successToast } = content.meeting;

/** Opens the form with the scripts matching `held` on a slow network, once page-boot ran when `bootRuns`. */
async function openFormWithScriptsHeld(page: Page, held: RegExp, bootRuns = true) {
  const scripts = await holdRequests(page, held);
  await page.goto("/");
  if (bootRuns) await pageBootHasRun(page);
  const form = meetingForm(page);
  await form.section.scrollIntoViewIfNeeded();
  return { ...scripts, form };
}

const TYPED_EARLY = [
  // The page's own script (src/boot/page-boot.ts) catches submits: until it runs, the button is off.
  { script: "page-boot", held: /\/page-boot-[^/]+\.js$/, bootRuns: false, button: "disabled" },
  // The form's toasts come with their own chunk (src/lib/toasts.ts), after the page's script.
  { script: "meeting-form", held: /\/meeting-form-[^/]+\.js$/, bootRuns: true, button: "enabled" },
] as const;

for (const { script, held, bootRuns, button } of TYPED_EARLY) {
  test(`answers given before the ${script} script runs are kept and sent`, async ({
    page,
    backend,
  }) => {
    const { form, release, held: requests } = await openFormWithScriptsHeld(page, held, bootRuns);
    const url = page.url();
    const input = everyAnswer(script);
    await fillMeetingForm(page, input);
    if (button === "disabled") await expect(form.submit).toBeDisabled();
    else await expect(form.submit).toBeEnabled();
    // A prefetch of the same file (build-time/page-scripts.ts) is held too, but not counted.
    const scriptRequests = requests.filter((request) => request.resourceType() === "script");
    expect(scriptRequests, `the page asked for the ${script} script`).toHaveLength(1);

    release();
    await expect(form.submit).toBeEnabled();
    await expect(form.fullName).toHaveValue(input.fullName);
    await expect(form.challenges).toHaveValue(input.challenges!);
    await submitAndSucceed(page);
    expect(page.url(), "no native submit: no answers in a query string").toBe(url);
    await expectStored(backend, input);
  });
}

const FORM_SCRIPTS = /\/(framework|meeting-form)-[^/]+\.js$/;

test("a submit before the form's script has arrived shows as submitting at once, is sent exactly once without waiting for it, and never natively", async ({
  page,
  backend,
  diagnostics,
}) => {
  const { form, release } = await openFormWithScriptsHeld(page, FORM_SCRIPTS);
  const url = page.url();
  const input = everyAnswer("early-tap");
  await fillMeetingForm(page, input);

  await expect(form.submit, "the button works before the form's script").toBeEnabled();
  await form.submit.click();
  await expect(form.submit).toHaveText(words.submittingLabel);
  for (const control of await form.controls.all()) await expect(control).toBeDisabled();
  await expect(form.section.locator("form")).toHaveAttribute("aria-busy", "true");
  expect(page.url()).toBe(url);
  await expect
    .poll(() => backend.rows(), { message: "stored while React and the form are on their way" })
    .toHaveLength(1);
  expect(diagnostics.insertRequests).toHaveLength(1);
  // Still submitting: the form shows the outcome once it is live.
  await expect(form.submit).toHaveText(words.submittingLabel);

  release();
  await expect(toast(page, successToast.title)).toBeVisible();
  expect(page.url()).toBe(url);
  await expectStored(backend, input);
  expect(diagnostics.insertRequests).toHaveLength(1);
  await expect(form.submit).toHaveText(words.submitLabel);
  await expect(form.submit).toBeEnabled();
  await expect(form.fullName).toHaveValue("");
});

/** The header names a request carries (values differ: the warm-up has no rows). */
async function headerNames(request: Request): Promise<string[]> {
  return Object.keys(await request.allHeaders())
    .filter((name) => name !== "content-length")
    .sort();
}

const isChallengeCall = (request: Request) =>
  request.method() === "POST" && request.url().endsWith("/rest/v1/rpc/form_challenge");

test("nothing goes to Supabase while the page starts; near the form the connection is warmed, and a visitor who types sends a proof solved meanwhile", async ({
  page,
  backend,
  diagnostics,
}) => {
  const toSupabase: string[] = [];
  const challengeCalls: Request[] = [];
  const scripts: string[] = [];
  page.on("response", async (response) => {
    if (response.request().resourceType() === "script")
      scripts.push(await response.text().catch(() => ""));
  });
  page.on("request", (request) => {
    if (request.url().startsWith(backend.url)) toSupabase.push(request.url());
    if (isChallengeCall(request)) challengeCalls.push(request);
  });
  await page.goto("/");
  await pageBootHasRun(page);
  await page.waitForLoadState("networkidle"); // the form's script loads when the browser is idle
  await page.waitForTimeout(1000);
  expect(toSupabase, "no warm-up and no challenge while the page starts").toEqual([]);
  expect(scripts.some(containsSupabaseJs), "no supabase-js while the page starts").toBe(false);
  expect(page.workers(), "no proof worker before the first focus").toHaveLength(0);
  await expect(page.locator('link[rel="preconnect"]')).toHaveCount(0);

  const form = meetingForm(page);
  await form.section.scrollIntoViewIfNeeded();
  await expect(
    page.locator(`link[rel="preconnect"][href="${backend.url}"][crossorigin="anonymous"]`),
  ).toHaveCount(1);
  await expect
    .poll(() => diagnostics.warmUpRequests.length, { message: "one warm-up of the insert" })
    .toBe(1);
  expect(await backend.rows(), "the warm-up stores nothing").toEqual([]);
  await expect.poll(() => scripts.some(containsSupabaseJs), { message: "supabase-js" }).toBe(true);
  expect(challengeCalls, "no challenge before the first focus").toHaveLength(0);

  // The page proof (src/lib/form-proof.ts) is solved in a Web Worker while the visitor types.
  const solverDone = page.waitForEvent("worker").then((worker) => worker.waitForEvent("close"));
  await form.fullName.click();
  await form.fullName.pressSequentially("Dana Whitfield", { delay: 40 });
  await form.organization.pressSequentially("Valley Regional Transit", { delay: 40 });
  await form.email.pressSequentially(uniqueEmail("dana.proof"), { delay: 40 });
  await solverDone;
  expect(challengeCalls).toHaveLength(1);
  // While the visitor is on the form the warm-up is repeated, asking the preflight again each
  // time (src/lib/keep-submit-warm.ts).
  await expect
    .poll(() => diagnostics.warmUpRequests.length, { message: "a repeat", timeout: 10_000 })
    .toBe(2);
  await submitAndSucceed(page);
  expect(await backend.rows()).toHaveLength(1);
  expect(diagnostics.insertRequests).toHaveLength(1);
  const [insert] = diagnostics.insertRequests;
  const [first, repeat] = diagnostics.warmUpRequests;
  const insertHeaders = await headerNames(insert!);
  expect(
    await headerNames(first!),
    "the warm-up asks the preflight for the insert's headers",
  ).toEqual(insertHeaders);
  expect(
    await headerNames(repeat!),
    "a repeat asks for one name more, so the answer is renewed",
  ).toEqual([...insertHeaders, "x-warm-up-a"].sort());
  expect([first!.url(), repeat!.url()]).toEqual([insert!.url(), insert!.url()]);
  const header = (await insert!.allHeaders())["x-form-proof"]!;
  expect(header).not.toMatch(/^pending:/);
  const proof = JSON.parse(Buffer.from(header, "base64").toString()) as { algorithm: string };
  expect(proof.algorithm).toBe("SHA-256");
  // That a submit stops the repeats: src/lib/keep-submit-warm.test.ts. The database's
  // verification and spending of the proof: local-backend/page-submit.test.ts. A fresh challenge
  // at the next first focus: form-proof.test.ts and meeting-form.test.tsx.
});

test("a visitor who taps at once sends a pending ticket, confirmed after the toast", async ({
  page,
  backend,
  diagnostics,
}) => {
  await openForm(page);
  // The challenge arrives only after the insert has left (a slow network): the proof cannot be ready.
  const inserted = page.waitForRequest(
    (request) => request.method() === "POST" && request.url().includes("/rest/v1/contacts"),
  );
  await page.route("**/rest/v1/rpc/form_challenge", async (route) => {
    await inserted;
    await route.continue();
  });
  const confirmation = page.waitForResponse((response) =>
    response.url().endsWith("/rest/v1/rpc/confirm_form_proof"),
  );

  // Autofill: the values appear without a focus; the tap is the first interaction.
  await page.evaluate((email) => {
    const set = (name: string, value: string) =>
      ((document.querySelector(`[name="${name}"]`) as HTMLInputElement).value = value);
    set("fullName", "Sam Okafor");
    set("organization", "Lakeside Dial-a-Ride");
    set("email", email);
  }, uniqueEmail("sam.pending"));
  await submitAndSucceed(page);
  expect(await backend.rows()).toHaveLength(1);
  const header = (await diagnostics.insertRequests[0]!.allHeaders())["x-form-proof"];
  expect(header).toMatch(/^pending:[0-9a-f]{32}$/);
  const ticket = header!.slice("pending:".length);

  const response = await confirmation;
  expect(response.status()).toBe(200);
  expect(JSON.parse(response.request().postData()!)).toEqual({ ticket, proof: expect.any(String) });
  expect(await response.json()).toBe(true); // what confirming does: local-backend/page-submit.test.ts
});
