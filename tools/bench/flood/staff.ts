/**
 * What reached staff and what the database holds during a flood run: each one-by-one e-mail and
 * each digest as the local mail catcher gets them, the requests stored since the run began (with
 * the screening's keyed hash of their address), and the wait until each has reached staff.
 */
import type { PGlite } from "@electric-sql/pglite";

import type { MailCatcher } from "../../../local-backend/notifications/mail-catcher";

export type StaffMail = ReturnType<typeof watchStaffMail>;

const LISTED = /^\d+\. .* <([^<>\s]+)>$/gm;

/** Reads the catcher every 50 ms until `stop()`, and at each `look()`. */
export function watchStaffMail(catcher: MailCatcher) {
  let read = catcher.messages.length;
  const first = new Map<string, { at: number; by: "one by one" | "digest" }>();
  const mail = {
    singles: [] as { email: string; at: number }[],
    digests: [] as { at: number; subject: string; listed: string[] }[],
    /** When `email` first reached staff, and how; undefined when it has not. */
    reached: (email: string) => first.get(email),
    look() {
      const at = Date.now();
      for (; read < catcher.messages.length; read += 1) {
        const message = catcher.messages[read]!;
        const subject = message.headers.get("subject") ?? "";
        if (subject.startsWith("Held back:")) {
          const listed = [...message.body.matchAll(LISTED)].map((match) => match[1]!);
          mail.digests.push({ at, subject, listed });
          for (const email of listed) if (!first.has(email)) first.set(email, { at, by: "digest" });
        } else {
          const email = message.replyTo ?? "";
          mail.singles.push({ email, at });
          if (email && !first.has(email)) first.set(email, { at, by: "one by one" });
        }
      }
    },
    stop() {
      clearInterval(timer);
      mail.look();
    },
  };
  const timer = setInterval(() => mail.look(), 50);
  return mail;
}

export interface StoredRequest {
  id: number;
  email: string;
  clientKey: string | null;
  verdict: string | null;
  proof: string | null;
  budget: string | null;
  notification: string | null;
}

/** The keyed hash the screening stores for requests from `address`. */
export async function clientKey(db: PGlite, address: string): Promise<string> {
  const result = await db.query<{ key: string }>(
    "select private.client_key(private.client_address($1)) as key",
    [JSON.stringify({ "cf-connecting-ip": address })],
  );
  return result.rows[0]!.key;
}

export async function lastRequestId(db: PGlite): Promise<number> {
  const result = await db.query<{ id: number | null }>(
    "select max(id)::int as id from public.contacts",
  );
  return result.rows[0]!.id ?? 0;
}

async function requestsSince(db: PGlite, afterId: number): Promise<StoredRequest[]> {
  const result = await db.query<StoredRequest>(
    `select c.id::int as id, c.email, s.client_key as "clientKey", s.verdict, s.proof, s.budget,
            n.status as notification
       from public.contacts c
       left join public.contact_screening s on s.contact_id = c.id
       left join public.contact_notifications n on n.contact_id = c.id
      where c.id > $1 order by c.id`,
    [afterId],
  );
  return result.rows;
}

/** A stored request that will get no further e-mail: notified, or in a digest already sent. */
const FINAL = new Set(["delivered", "digested", "skipped"]);

export type WaitOutcome = Awaited<ReturnType<typeof waitForStaff>>;

/**
 * Waits until every request stored after `afterId` has reached staff or never will, or `deadline`;
 * then `waiting` are still waiting, `unlisted` were in a digest that did not list them (past its limit).
 */
export async function waitForStaff(db: PGlite, mail: StaffMail, afterId: number, deadline: number) {
  for (;;) {
    mail.look();
    const requests = await requestsSince(db, afterId);
    const open = requests.filter((request) => !mail.reached(request.email));
    const waiting = open.filter((request) => !FINAL.has(request.notification ?? ""));
    if (waiting.length === 0 || Date.now() >= deadline) {
      const unlisted = open.filter((request) => FINAL.has(request.notification ?? ""));
      return { requests, unlisted, waiting, endedAt: Date.now() };
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}
