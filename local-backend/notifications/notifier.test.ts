/**
 * The local notification path on a real database: the Edge Function under Deno, its
 * delivery-state calls through the service API, the mail catcher. (server.test's
 * notification tests go through HTTP inserts; these drive the notifier directly.)
 */
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

import type { PGlite } from "@electric-sql/pglite";

import { openDatabase, SerialQueue } from "../database";
import { startLocalBackend } from "../server";
import { asVisitor, goodRow, insertAs, pageProof, visitorHeaders } from "../test-helpers";
import { startMailCatcher } from "./mail-catcher";
import { startLocalNotifier, type LocalNotifier } from "./notifier";

jest.setTimeout(60_000);

let db: PGlite;
const queue = new SerialQueue();
const run = <T>(task: (database: PGlite) => Promise<T>): Promise<T> => queue.run(() => task(db));

beforeEach(async () => {
  ({ db } = await openDatabase());
});

afterEach(async () => {
  await queue.idle();
  await db.close();
});

async function insertRequest(
  notifier: LocalNotifier,
  overrides: Parameters<typeof goodRow>[0] = {},
): Promise<number> {
  const row = goodRow(overrides);
  // Sent through the page (page-verified), so notified one by one (20261124110000_request_screening.sql).
  await run(async (database) =>
    asVisitor(
      database,
      visitorHeaders("198.51.100.1", { "x-form-proof": await pageProof(database) }),
      (tx) => insertAs(tx, row),
    ),
  );
  notifier.afterWrite();
  const result = await db.query<{ id: number }>("select id from public.contacts where email = $1", [
    row.email,
  ]);
  return result.rows[0]!.id;
}

async function notification(id: number) {
  const result = await db.query<{ status: string; attempts: number; last_error: string | null }>(
    "select status, attempts, last_error from public.contact_notifications where contact_id = $1",
    [id],
  );
  return result.rows[0]!;
}

test("a stored request produces exactly one e-mail in the catcher, saved as an .eml file", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "local-mail-"));
  const notifier = await startLocalNotifier(run, {
    catcher: { port: 0, dir },
    to: "Sales <sales@example-transit.test>",
    sweepIntervalMs: 100,
  });
  try {
    const id = await insertRequest(notifier, {
      name: "Zoë Saldaña-Ñúñez",
      email: "zoe@example.org",
      organization: "東京都交通局",
      message: "Phone: Not provided\nFleet Size: 40 vehicles",
    });
    const [mail] = await notifier.catcher!.waitFor(1);
    await notifier.idle();
    await new Promise((resolve) => setTimeout(resolve, 300)); // a few more sweeps
    expect(notifier.catcher!.messages).toHaveLength(1);
    expect(mail!.to).toEqual(["sales@example-transit.test"]);
    expect(mail!.headers.get("subject")).toBe("Meeting request: Zoë Saldaña-Ñúñez (東京都交通局)");
    expect(mail!.headers.get("reply-to")).toBe("Zoë Saldaña-Ñúñez <zoe@example.org>");
    expect(mail!.replyTo).toBe("zoe@example.org");
    expect(mail!.body).toContain("Organization:  東京都交通局\n");
    expect(mail!.body).toContain("Message:\n  Phone: Not provided\n  Fleet Size: 40 vehicles\n");
    expect(fs.readFileSync(mail!.file!, "utf8")).toBe(mail!.raw);
    expect(path.basename(mail!.file!)).toMatch(new RegExp(`_meeting-request-${id}\\.eml$`));
    expect(await notification(id)).toEqual({ status: "delivered", attempts: 1, last_error: null });
  } finally {
    await notifier.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("with the mail server down the request stays pending with the error; when it returns, the e-mail arrives once", async () => {
  const first = await startMailCatcher({ port: 0 });
  const port = first.port;
  await first.close();
  const notifier = await startLocalNotifier(run, {
    smtp: { host: "127.0.0.1", port },
    retryBaseSeconds: 0.2,
    retryMaxSeconds: 0.4,
    sweepIntervalMs: 100,
  });
  try {
    const id = await insertRequest(notifier);
    await notifier.idle();
    const pending = await notification(id);
    expect(pending.status).toBe("pending");
    expect(pending.attempts).toBeGreaterThanOrEqual(1);
    expect(pending.last_error).toMatch(
      new RegExp(`Cannot connect to SMTP server 127\\.0\\.0\\.1:${port}`),
    );

    const back = await startMailCatcher({ port });
    try {
      await back.waitFor(1);
      await notifier.idle();
      await new Promise((resolve) => setTimeout(resolve, 500)); // several more sweeps: nothing is sent again
      expect(back.messages).toHaveLength(1);
      expect((await notification(id)).status).toBe("delivered");
    } finally {
      await back.close();
    }
  } finally {
    await notifier.close();
  }
});

test("the catcher's usual port taken: any free port, said in one line; a port asked for and taken: the backend does not start, and says why", async () => {
  const holder = net.createServer();
  await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
  const taken = (holder.address() as net.AddressInfo).port;
  try {
    const lines: string[] = [];
    const notifier = await startLocalNotifier(run, {
      catcher: { port: taken, anyPortIfTaken: true },
      log: (line) => lines.push(line),
    });
    const port = notifier.catcher!.port;
    await notifier.close();
    expect(port).not.toBe(taken);
    expect(lines).toContain(
      `The mail catcher's usual port ${taken} is taken; it listens on ${port} instead.`,
    );
    await expect(
      startLocalBackend({ port: 0, notifications: { catcher: { port: taken } } }),
    ).rejects.toThrow(
      /^Staff notifications could not start \(listen EADDRINUSE.*\)\. Free that port or set LOCAL_MAIL_PORT to another one, or set LOCAL_NOTIFICATIONS=off/,
    );
  } finally {
    holder.close();
  }
});
