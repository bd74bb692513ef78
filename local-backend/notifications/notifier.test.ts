/**
 * Staff notifications as `npm start` runs them: an insert over HTTP, the webhook to the real Edge
 * Function under Deno, its delivery recorded through the backend, the e-mail in the catcher; a
 * held request once the page confirms it; the digest past a budget. The e-mail's text:
 * supabase/functions compose.test.ts; its booking link, in the browser: e2e booking.spec.ts.
 */
import fs from "node:fs";
import net from "node:net";
import path from "node:path";

import { FORM_PROOF_HEADER } from "../../src/lib/form-proof";
import { readRequests } from "../database";
import { formatRequestsText, loadRequests } from "../requests";
import { startLocalBackend, type LocalBackend } from "../server";
import {
  goodRow,
  pageProofOverHttp,
  pendingProof,
  postJson,
  rejection,
} from "../test-support/helpers";
import { tempDataDir } from "../test-support/processes";
import { startMailCatcher } from "./mail-catcher";

jest.setTimeout(60_000);

/** A POST to /rest/v1/<path> as the page sends it (its solved proof unless `headers` has one). */
async function post(
  backend: LocalBackend,
  path: string,
  body: object,
  headers: Record<string, string> = {},
): Promise<number> {
  const proof = await pageProofOverHttp(backend.url, backend.anonKey);
  return postJson(backend.url, body, { path, headers: { [FORM_PROOF_HEADER]: proof, ...headers } });
}

/** An insert with the header the page's worker adds once the proof is solved. */
const submit = (backend: LocalBackend, email: string): Promise<number> =>
  post(backend, "contacts", goodRow({ email }));

/** The request's id and delivery: status, attempts and last error (meeting_requests_overview). */
async function notificationOf(backend: LocalBackend, email: string) {
  const request = (await readRequests(backend.db)).find((stored) => stored.email === email)!;
  const { notification, notification_attempts, notification_error } = request.status!;
  return {
    id: request.id,
    status: notification,
    attempts: notification_attempts,
    last_error: notification_error,
  };
}

/** What `npm run requests` prints for the request (the backend runs: it answers the listing). */
async function listed(dataDir: string, email: string): Promise<string> {
  const { requests } = await loadRequests(dataDir);
  return formatRequestsText(requests.filter((request) => request.email === email));
}

test("a form submission gives exactly one e-mail, to NOTIFY_EMAIL_TO, saved as .eml", async () => {
  const dir = tempDataDir("local-mail-");
  const backend = await startLocalBackend({
    port: 0,
    notifications: {
      catcher: { port: 0, dir },
      functionEnv: { NOTIFY_EMAIL_TO: "Sales <sales@example-transit.test>" },
      sweepIntervalMs: 100,
    },
  });
  try {
    expect(await submit(backend, "ana.notify@vrt.example.org")).toBe(201);
    const catcher = backend.notifier!.catcher!;
    const [mail] = await catcher.waitFor(1);
    await backend.notifier!.idle();
    await new Promise((resolve) => setTimeout(resolve, 300)); // a few more sweeps: nothing more
    expect(catcher.messages).toHaveLength(1);
    expect(mail!.to).toEqual(["sales@example-transit.test"]);
    const { id, ...delivery } = await notificationOf(backend, "ana.notify@vrt.example.org");
    expect(delivery).toEqual({ status: "delivered", attempts: 1, last_error: null });
    expect(fs.readFileSync(mail!.file!, "utf8")).toBe(mail!.raw);
    expect(path.basename(mail!.file!)).toMatch(new RegExp(`_meeting-request-${id}\\.eml$`));

    // Sent before the page's proof was ready: held, then e-mailed at once when the page confirms it.
    const { header } = pendingProof();
    const held = goodRow({ email: "held.notify@vrt.example.org", name: "Pending Visitor" });
    expect(await post(backend, "contacts", held, { [FORM_PROOF_HEADER]: header })).toBe(201);
    await backend.notifier!.idle();
    expect(catcher.messages).toHaveLength(1);
    const ticket = header.slice("pending:".length);
    const proof = await pageProofOverHttp(backend.url, backend.anonKey);
    expect(await post(backend, "rpc/confirm_form_proof", { ticket, proof })).toBe(200);
    const [, confirmed] = await catcher.waitFor(2);
    expect(confirmed!.headers.get("subject")).toMatch(/^Meeting request: Pending Visitor \(/);
  } finally {
    await backend.close();
  }
});

test("past an address's budget, page-verified requests are listed in the digest, each with its booking link", async () => {
  const backend = await startLocalBackend({
    port: 0,
    notifications: { catcher: { port: 0 }, sweepIntervalMs: 60_000, digestIntervalMs: 200 },
    // No refill: the address's burst of 4 is all it gets one by one.
    screening: { one_by_one_refill_seconds: 3600 },
  });
  try {
    const catcher = backend.notifier!.catcher!;
    const emails = ["1", "2", "3", "4", "5"].map((n) => `budget${n}.notify@vrt.example.org`);
    for (const email of emails) expect(await submit(backend, email)).toBe(201);
    const mails = await catcher.waitFor(5);
    await backend.notifier!.idle();
    const subjects = mails.map((mail) => mail.headers.get("subject") ?? "");
    expect(subjects.filter((subject) => subject.startsWith("Meeting request:"))).toHaveLength(4);
    const digest = mails.find((mail) => mail.headers.get("subject")?.startsWith("Held back:"));
    expect(digest!.headers.get("subject")).toMatch(/, 1 sent through the page \(digest #\d+\)$/);
    expect(digest!.body).toContain(`<${emails[4]}>`);
    for (const mail of mails)
      expect(mail.body).toMatch(/Book a time: +http:\/\/localhost:8000\/book\/#[\w-]{43}\b/);
  } finally {
    await backend.close();
  }
});

test("mail server down: stored and answered 201, listed as not notified; when it returns, one e-mail", async () => {
  const probe = await startMailCatcher();
  const smtpPort = probe.port;
  await probe.close();
  const dataDir = tempDataDir("notify-down-");
  const backend = await startLocalBackend({
    port: 0,
    dataDir,
    notifications: {
      smtp: { host: "127.0.0.1", port: smtpPort },
      functionEnv: { NOTIFY_RETRY_BASE_SECONDS: "0.2", NOTIFY_RETRY_MAX_SECONDS: "0.5" },
      sweepIntervalMs: 100,
    },
  });
  try {
    const email = "down.notify@vrt.example.org";
    expect(await submit(backend, email)).toBe(201);
    await backend.notifier!.idle();
    const pending = await notificationOf(backend, email);
    expect(pending.status).toBe("pending");
    expect(pending.last_error).toMatch(
      new RegExp(`Cannot connect to SMTP server 127\\.0\\.0\\.1:${smtpPort}`),
    );
    expect(await listed(dataDir, email)).toMatch(
      / {2}Notified: {6}NOT YET \(\d+ attempts?; last error: Cannot connect to SMTP server/,
    );

    const catcher = await startMailCatcher({ port: smtpPort });
    try {
      const [mail] = await catcher.waitFor(1);
      await new Promise((resolve) => setTimeout(resolve, 600)); // several more sweeps: nothing is sent again
      expect(catcher.messages).toHaveLength(1);
      expect(mail!.to).toEqual(["meetings@example-transit.test"]);
      expect((await notificationOf(backend, email)).status).toBe("delivered");
      expect(await listed(dataDir, email)).toMatch(
        / {2}Notified: {6}yes, \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\n/,
      );
    } finally {
      await catcher.close();
    }
  } finally {
    await backend.close();
  }
});

test("the catcher's usual port taken: any free port, said in one line; a port asked for and taken: no start, and why", async () => {
  const holder = net.createServer();
  await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
  const taken = (holder.address() as net.AddressInfo).port;
  try {
    const lines: string[] = [];
    const backend = await startLocalBackend({
      port: 0,
      notifications: { catcher: { port: taken, anyPortIfTaken: true } },
      log: (line) => lines.push(line),
    });
    const port = backend.notifier!.catcher!.port;
    await backend.close();
    expect(port).not.toBe(taken);
    expect(lines).toContain(
      `The mail catcher's usual port ${taken} is taken; it listens on ${port} instead.`,
    );
    const error = await rejection(
      startLocalBackend({ port: 0, notifications: { catcher: { port: taken } } }),
    );
    expect(error.message).toMatch(
      /^Staff notifications could not start \(listen EADDRINUSE.*\)\. Free that port or set LOCAL_MAIL_PORT to another one, or set LOCAL_NOTIFICATIONS=off/,
    );
  } finally {
    holder.close();
  }
});
