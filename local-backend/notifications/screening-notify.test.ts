/**
 * The screening through the running backend (HTTP, the Deno function, the mail catcher): the
 * client address comes from the socket whatever the client writes in X-Forwarded-For or
 * CF-Connecting-IP; page-verified requests from one address are e-mailed one by one within its
 * budget and each listed in the digest past it; direct ones are capped and reach staff only in
 * the digest; a pending request the page confirms is e-mailed at once.
 */
import http from "node:http";

import { FORM_PROOF_HEADER } from "../../src/lib/form-proof";
import { startLocalBackend } from "../server";
import {
  goodRow,
  openedForTests,
  pageProofOverHttp,
  pendingProof,
  waitUntil,
} from "../test-support/helpers";

jest.setTimeout(120_000);

const backend = openedForTests(() =>
  startLocalBackend({
    port: 0,
    // The retry sweep is slow on purpose: what arrives fast came through the webhook pump.
    notifications: { catcher: { port: 0 }, sweepIntervalMs: 60_000, digestIntervalMs: 200 },
    // No refill during the test: an address's burst of 4 is all it gets one by one, however long solving takes.
    screening: { one_by_one_refill_seconds: 3600 },
  }),
);

/** A POST from the loopback address `from` (Node's localAddress), with extra headers. */
function post(path: string, body: unknown, from: string, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  const options = {
    method: "POST",
    localAddress: from,
    headers: { apikey: backend().anonKey, "Content-Type": "application/json", ...headers },
  };
  return new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    const req = http.request(new URL(path, backend().url), options, async (res) => {
      let raw = "";
      for await (const chunk of res) raw += chunk;
      resolve({ status: res.statusCode ?? 0, body: raw ? JSON.parse(raw) : undefined });
    });
    req.on("error", reject).end(text);
  });
}

async function keysOf(emails: string[]): Promise<string[]> {
  const result = await backend().db.query<{ client_key: string }>(
    "select distinct s.client_key from public.contacts c join public.contact_screening s on s.contact_id = c.id where c.email = any($1)",
    [emails],
  );
  return result.rows.map((row) => row.client_key);
}

test("spoofed X-Forwarded-For and CF-Connecting-IP buy no new identity: the 21st direct request from one address is 429", async () => {
  const emails: string[] = [];
  for (let i = 0; i < 20; i += 1) {
    const row = goodRow();
    emails.push(row.email);
    const sent = await post("/rest/v1/contacts", row, "127.0.0.2", {
      "X-Forwarded-For": `10.0.${i}.1`,
      "CF-Connecting-IP": `10.1.${i}.1`,
      "X-Real-IP": `10.2.${i}.1`,
    });
    expect(sent.status).toBe(201);
  }
  expect(await keysOf(emails)).toHaveLength(1);
  const refused = await post("/rest/v1/contacts", goodRow(), "127.0.0.2", {
    "X-Forwarded-For": "203.0.113.99",
  });
  expect(refused).toEqual({
    status: 429,
    body: {
      code: "PT429",
      message: "Too many meeting requests without the page's proof from this network address",
      details:
        "At most 20 meeting requests that were not verified as sent from the site's page are accepted per network address per hour.",
      hint: "Send the request from the site's form, which proves it came from the page, or try again in an hour.",
    },
  });
  // Another address is another client.
  expect((await post("/rest/v1/contacts", goodRow(), "127.0.0.3")).status).toBe(201);
});

test("30 page-verified requests from one address within a minute are all stored: 4 e-mailed one by one, the other 26 each listed in the next digest, before the direct ones", async () => {
  const catcher = backend().notifier!.catcher!;
  // The test before held 20 direct requests: its digest goes out with the first of them. Count
  // from after it, so it is not taken for this test's.
  const sent = "select 1 from public.contact_digests where sent_at is not null";
  await waitUntil(async () => (await backend().db.query(sent)).rows.length > 0);
  await backend().notifier!.idle();
  const before = catcher.messages.length;
  const subjects = (prefix: string) =>
    catcher.messages
      .slice(before)
      .filter((mail) => mail.headers.get("subject")?.startsWith(prefix));
  const emails: string[] = [];
  for (let i = 0; i < 30; i += 1) {
    const row = goodRow();
    emails.push(row.email);
    const proof = await pageProofOverHttp(backend().url, backend().anonKey);
    expect(
      (await post("/rest/v1/contacts", row, "127.0.0.2", { [FORM_PROOF_HEADER]: proof })).status,
    ).toBe(201);
  }
  await backend().notifier!.idle();
  // The digest of the test before went out with its first held request; the next one is due a
  // digest interval later (private.screening_settings): move that sent digest back in time.
  await backend().db.query(
    "update public.contact_digests set sent_at = sent_at - interval '1 hour' where sent_at is not null",
  );
  await waitUntil(
    () => subjects("Meeting request:").length >= 4 && subjects("Held back:").length >= 1,
    60_000,
  );
  await backend().notifier!.idle();
  await new Promise((resolve) => setTimeout(resolve, 1_000)); // more digest-job runs: nothing more is sent

  const oneByOne = subjects("Meeting request:").map((mail) => mail.headers.get("reply-to") ?? "");
  expect(oneByOne).toHaveLength(4);
  emails.slice(0, 4).forEach((email, index) => expect(oneByOne[index]).toContain(email));
  const digests = subjects("Held back:");
  expect(digests).toHaveLength(1);
  expect(digests[0]!.headers.get("subject")).toMatch(
    /^Held back: \d+ meeting requests, 26 sent through the page \(digest #\d+\)$/,
  );
  const body = digests[0]!.body;
  const listed = emails.slice(4).map((email) => body.indexOf(`<${email}>`));
  expect(listed.every((at) => at > 0)).toBe(true);
  const firstDirect = body.indexOf("Held for: not sent through the site's page (no proof)");
  if (firstDirect > 0) expect(Math.max(...listed)).toBeLessThan(firstDirect);
  expect(body).toMatch(/Held for: too many at once from its network address/);
});

test("a request sent before the proof was ready is held, and e-mailed at once when the page confirms it", async () => {
  const catcher = backend().notifier!.catcher!;
  const before = catcher.messages.length;
  const { header } = pendingProof();
  const row = goodRow({ name: "Pending Visitor" });
  expect(
    (await post("/rest/v1/contacts", row, "127.0.0.4", { [FORM_PROOF_HEADER]: header })).status,
  ).toBe(201);
  await backend().notifier!.idle();
  expect(catcher.messages).toHaveLength(before);
  const proof = await pageProofOverHttp(backend().url, backend().anonKey);
  const confirmed = await post(
    "/rest/v1/rpc/confirm_form_proof",
    { ticket: header.slice("pending:".length), proof },
    "127.0.0.4",
  );
  expect(confirmed).toEqual({ status: 200, body: true });
  const [mail] = (await catcher.waitFor(before + 1)).slice(before);
  expect(mail!.headers.get("subject")).toBe(
    "Meeting request: Pending Visitor (Metro Transit Authority)",
  );
});
