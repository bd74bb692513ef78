/**
 * Staff notifications through the embedded backend, as `npm start` runs them: the site's own
 * submit path (supabase-js over HTTP) stores a request, the backend posts the webhook to the
 * real Edge Function under Deno, and the e-mail lands in the catcher.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { buildContactRecord } from "../../src/lib/meeting-request";
import { FORM_PROOF_HEADER } from "../../src/lib/form-proof";
import { contactsInsertHeaders } from "../../src/lib/submit-meeting-request";
import { formatRequestsText, loadRequests } from "../requests";
import { startLocalBackend, type LocalBackend } from "../server";
import { pageProofOverHttp } from "../test-helpers";
import { startMailCatcher } from "./mail-catcher";

jest.setTimeout(60_000);

const meetingTimes = [{ value: "day1-morning", label: "Day 1 Morning" }];

function formRecord(email: string) {
  return buildContactRecord(
    {
      fullName: 'Ana "Anita" Pérez',
      organization: "Valley Regional Transit — 東京支社",
      email,
      phone: "+1 555 0100",
      fleetSize: "25 vehicles",
      products: ["MobilityDR", "Vámonos!"],
      meetingTime: "day1-morning",
      challenges: "Riders wait too long.\nSecond line.",
    },
    meetingTimes,
  );
}

async function notificationOf(backend: LocalBackend, email: string) {
  const result = await backend.db.query<{
    status: string;
    attempts: number;
    last_error: string | null;
  }>(
    `select n.status, n.attempts, n.last_error
       from public.contacts c join public.contact_notifications n on n.contact_id = c.id
      where c.email = $1`,
    [email],
  );
  return result.rows;
}

test("a form submission produces exactly one e-mail with the four fields, the time received and Reply-To", async () => {
  const backend = await startLocalBackend({
    port: 0,
    notifications: { catcher: { port: 0 }, sweepIntervalMs: 100 },
  });
  try {
    const record = formRecord("ana.notify@vrt.example.org");
    // The page's own insert (src/lib), with the header its worker adds once the proof is solved.
    const proof = await pageProofOverHttp(backend.url, backend.anonKey);
    const response = await fetch(`${backend.url}/rest/v1/contacts`, {
      method: "POST",
      headers: {
        apikey: backend.anonKey,
        "Content-Type": "application/json",
        ...contactsInsertHeaders(),
        [FORM_PROOF_HEADER]: proof,
      },
      body: JSON.stringify(record),
    });
    expect(response.status).toBe(201);
    const catcher = backend.notifier!.catcher!;
    const [mail] = await catcher.waitFor(1);
    await backend.notifier!.idle();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(catcher.messages).toHaveLength(1);
    expect(mail!.headers.get("subject")).toBe(
      'Meeting request: Ana "Anita" Pérez (Valley Regional Transit — 東京支社)',
    );
    expect(mail!.headers.get("reply-to")).toBe('Ana "Anita" Pérez <ana.notify@vrt.example.org>');
    expect(mail!.body).toContain('Name:          Ana "Anita" Pérez\n');
    expect(mail!.body).toContain("Organization:  Valley Regional Transit — 東京支社\n");
    expect(mail!.body).toContain("E-mail:        ana.notify@vrt.example.org\n");
    expect(mail!.body).toMatch(/Received: {6}\w+day, \w+ \d+, \d{4} at \d+:\d\d:\d\d [AP]M UTC\n/);
    expect(mail!.body).toContain(
      [
        "Message:",
        "  Phone: +1 555 0100",
        "  Fleet Size: 25 vehicles",
        "  Products of Interest: MobilityDR, Vámonos!",
        "  Preferred Meeting Time: Day 1 Morning",
        "  Challenges/Questions: Riders wait too long.",
        "  Second line.",
      ].join("\n"),
    );
    expect(await notificationOf(backend, "ana.notify@vrt.example.org")).toEqual([
      { status: "delivered", attempts: 1, last_error: null },
    ]);
  } finally {
    await backend.close();
  }
});

/** What `npm run requests` prints for the request (the backend is running: it answers the listing). */
async function listed(dataDir: string, email: string): Promise<string> {
  const { requests } = await loadRequests(dataDir);
  return formatRequestsText(requests.filter((request) => request.email === email));
}

test("mail server down: the request is stored and answered 201, listed as not notified; when the server returns, one e-mail", async () => {
  const probe = await startMailCatcher({ port: 0 });
  const smtpPort = probe.port;
  await probe.close();
  const dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "notify-down-")), "data");
  const backend = await startLocalBackend({
    port: 0,
    dataDir,
    notifications: {
      smtp: { host: "127.0.0.1", port: smtpPort },
      retryBaseSeconds: 0.2,
      retryMaxSeconds: 0.5,
      sweepIntervalMs: 100,
    },
  });
  try {
    const email = "down.notify@vrt.example.org";
    const response = await fetch(`${backend.url}/rest/v1/contacts`, {
      method: "POST",
      headers: {
        apikey: backend.anonKey,
        "Content-Type": "application/json",
        [FORM_PROOF_HEADER]: await pageProofOverHttp(backend.url, backend.anonKey),
      },
      body: JSON.stringify(formRecord(email)),
    });
    expect(response.status).toBe(201);
    await backend.notifier!.idle();
    const [pending] = await notificationOf(backend, email);
    expect(pending!.status).toBe("pending");
    expect(pending!.last_error).toMatch(/Cannot connect to SMTP server/);
    expect(await listed(dataDir, email)).toMatch(
      new RegExp(
        `  Notified:      NOT YET \\(\\d+ attempts?; last error: Cannot connect to SMTP server 127\\.0\\.0\\.1:${smtpPort}`,
      ),
    );

    const catcher = await startMailCatcher({ port: smtpPort });
    try {
      const [mail] = await catcher.waitFor(1);
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(catcher.messages).toHaveLength(1);
      expect(mail!.headers.get("reply-to")).toBe('Ana "Anita" Pérez <down.notify@vrt.example.org>');
      expect((await notificationOf(backend, email))[0]!.status).toBe("delivered");
      expect(await listed(dataDir, email)).toMatch(
        / {2}Notified: {6}yes, \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\n/,
      );
    } finally {
      await catcher.close();
    }
  } finally {
    await backend.close();
    fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
  }
});
