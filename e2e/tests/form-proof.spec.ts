/**
 * The page proof (issue 19, src/lib/form-proof.ts) in a real browser against the real local
 * backend: nothing before the first focus; a visitor who types sends a solved proof the database
 * verifies; a visitor who taps at once sends `pending:<ticket>` and the page confirms it after
 * the toast.
 */
import crypto from "node:crypto";
import type { Request } from "@playwright/test";
import { content } from "../support/content";
import { expect, test } from "../support/fixtures";
import { meetingForm, toast, uniqueEmail } from "../support/form";

const CONFIRMED_STUB = "e2e stand-in until the screening migration defines it";

/**
 * private.form_proof_confirmed is the screening migration's (20261124110000). Where it is not
 * there yet, a stand-in records the ticket hashes it is given and answers true.
 */
async function confirmedTicketHashes(db: {
  query: (sql: string) => Promise<{ rows: unknown[] }>;
}): Promise<string[] | undefined> {
  const existing = await db.query(
    "select pg_catalog.obj_description(pg_catalog.to_regprocedure('private.form_proof_confirmed(text)'), 'pg_proc') as note, pg_catalog.to_regprocedure('private.form_proof_confirmed(text)') is not null as present",
  );
  const { note, present } = existing.rows[0] as { note: string | null; present: boolean };
  if (present && note !== CONFIRMED_STUB) return undefined;
  if (!present) {
    await db.query(`create table private.e2e_confirmed (ticket_hash text)`);
    await db.query(
      `create function private.form_proof_confirmed(ticket_hash text) returns boolean language sql set search_path = ''
         as $$ insert into private.e2e_confirmed values (ticket_hash) returning true $$`,
    );
    await db.query(`comment on function private.form_proof_confirmed(text) is '${CONFIRMED_STUB}'`);
  }
  return (
    (await db.query("select ticket_hash from private.e2e_confirmed")).rows as {
      ticket_hash: string;
    }[]
  ).map((row) => row.ticket_hash);
}

const isChallengeCall = (request: Request) =>
  request.method() === "POST" && request.url().endsWith("/rest/v1/rpc/form_challenge");

test("a visitor who focuses the form and types sends a proof the database verifies", async ({
  page,
  backend,
  backendProcess,
  diagnostics,
}) => {
  const challengeCalls: Request[] = [];
  page.on("request", (request) => isChallengeCall(request) && challengeCalls.push(request));
  await page.goto("/");
  const form = meetingForm(page);
  await form.section.scrollIntoViewIfNeeded();
  await page.waitForTimeout(1000);
  expect(challengeCalls, "no challenge before the first focus").toHaveLength(0);
  expect(page.workers(), "no worker before the first focus").toHaveLength(0);

  const solverDone = page.waitForEvent("worker").then((worker) => worker.waitForEvent("close"));
  await form.fullName.click();
  await form.fullName.pressSequentially("Dana Whitfield", { delay: 40 });
  await form.organization.pressSequentially("Valley Regional Transit", { delay: 40 });
  await form.email.pressSequentially(uniqueEmail("dana.proof"), { delay: 40 });
  await solverDone; // solved in a Web Worker while the visitor typed
  expect(challengeCalls).toHaveLength(1);

  await form.submit.click();
  await expect(toast(page, content.meeting.successToast.title)).toBeVisible();
  expect(await backend.rows()).toHaveLength(1);
  const header = (await diagnostics.insertRequests[0]!.allHeaders())["x-form-proof"];
  expect(header).toBeDefined();
  expect(header).not.toMatch(/^pending:/);
  const proof = JSON.parse(Buffer.from(header!, "base64").toString()) as {
    algorithm: string;
    challenge: string;
    number: number;
  };
  expect(proof.algorithm).toBe("SHA-256");

  // Verified by the database: spent by the insert's screening (once that migration is there),
  // or, before it, verified now by the same function the screening calls.
  const db = backendProcess.running()!.db;
  const spent = await db.query("select from private.form_proofs_spent where challenge = $1", [
    proof.challenge,
  ]);
  if (spent.rows.length === 0) {
    expect(
      (await db.query<{ v: string }>("select private.form_proof_verdict($1) as v", [header]))
        .rows[0]!.v,
    ).toBe("verified");
  }
  // A proof counts once: the next visitor's first focus fetches a fresh challenge, and nothing before
  // it does (each challenge of an address costs more than the last).
  await page.waitForTimeout(500);
  expect(challengeCalls).toHaveLength(1);
  await form.fullName.click();
  await expect.poll(() => challengeCalls.length).toBe(2);
});

test("a visitor who taps at once sends a pending ticket, confirmed after the toast", async ({
  page,
  backend,
  backendProcess,
  diagnostics,
}) => {
  const db = backendProcess.running()!.db;
  const before = await confirmedTicketHashes(db);
  await page.goto("/");
  const form = meetingForm(page);
  await form.section.scrollIntoViewIfNeeded();

  // The challenge arrives only after the insert has left (a slow network): the proof cannot be ready.
  let insertSent: () => void = () => undefined;
  const inserted = new Promise<void>((resolve) => (insertSent = resolve));
  page.on(
    "request",
    (request) =>
      request.method() === "POST" && request.url().includes("/rest/v1/contacts") && insertSent(),
  );
  await page.route("**/rest/v1/rpc/form_challenge", async (route) => {
    await inserted;
    await route.continue();
  });
  const confirmation = page.waitForResponse((response) =>
    response.url().endsWith("/rest/v1/rpc/confirm_form_proof"),
  );

  // Autofill: the values appear without a focus; the tap is the first interaction.
  await page.evaluate(
    ([email]) => {
      const set = (name: string, value: string) =>
        ((document.querySelector(`[name="${name}"]`) as HTMLInputElement).value = value);
      set("fullName", "Sam Okafor");
      set("organization", "Lakeside Dial-a-Ride");
      set("email", email!);
    },
    [uniqueEmail("sam.pending")],
  );
  await form.submit.click();
  await expect(toast(page, content.meeting.successToast.title)).toBeVisible();
  expect(await backend.rows()).toHaveLength(1);
  const header = (await diagnostics.insertRequests[0]!.allHeaders())["x-form-proof"];
  expect(header).toMatch(/^pending:[0-9a-f]{32}$/);
  const ticket = header!.slice("pending:".length);

  const response = await confirmation;
  expect(response.status()).toBe(200);
  expect(JSON.parse(response.request().postData()!)).toEqual({ ticket, proof: expect.any(String) });
  expect(await response.json()).toBe(true);
  if (before !== undefined) {
    const sha256 = crypto.createHash("sha256").update(ticket).digest("hex");
    expect(await confirmedTicketHashes(db)).toEqual([...before, sha256]);
  }
});
