/**
 * What staff received, read from the local mail catcher as it arrives: each one-by-one e-mail
 * (its Reply-To is the prospect) and each digest (subject "Held back: …", whose body lists every
 * request it covers as `n. Name (Organization) <email>`), with the time it arrived. A request has
 * reached staff when it was e-mailed one by one or listed in a digest.
 */
import type { MailCatcher } from "../../../local-backend/notifications/mail-catcher";

export interface Digest {
  /** Date.now() when the catcher had it. */
  at: number;
  subject: string;
  /** The e-mail addresses it lists, in its order. */
  listed: string[];
}

export interface StaffMail {
  /** Every one-by-one e-mail: the prospect's address (its Reply-To) and when it arrived. */
  singles: { email: string; at: number }[];
  digests: Digest[];
  /** When `email` first reached staff, and how; undefined when it has not. */
  reached(email: string): { at: number; by: "one by one" | "digest" } | undefined;
  /** Reads what arrived since the last look (also done every 50 ms until stop). */
  look(): void;
  stop(): void;
}

const LISTED = /^\d+\. .* <([^<>\s]+)>$/gm;

export function watchStaffMail(catcher: MailCatcher): StaffMail {
  let read = catcher.messages.length;
  const oneByOne = new Map<string, number>();
  const digests: Digest[] = [];
  const inDigest = new Map<string, number>();
  const singles: StaffMail["singles"] = [];
  const mail: StaffMail = {
    singles,
    digests,
    reached(email) {
      const single = oneByOne.get(email);
      const listed = inDigest.get(email);
      if (single === undefined && listed === undefined) return undefined;
      return single !== undefined && (listed === undefined || single <= listed)
        ? { at: single, by: "one by one" }
        : { at: listed!, by: "digest" };
    },
    look() {
      const now = Date.now();
      for (; read < catcher.messages.length; read += 1) {
        const message = catcher.messages[read]!;
        const subject = message.headers.get("subject") ?? "";
        if (subject.startsWith("Held back:")) {
          const listed = [...message.body.matchAll(LISTED)].map((match) => match[1]!);
          digests.push({ at: now, subject, listed });
          for (const email of listed) if (!inDigest.has(email)) inDigest.set(email, now);
          continue;
        }
        const address = message.replyTo ?? "";
        singles.push({ email: address, at: now });
        if (address && !oneByOne.has(address)) oneByOne.set(address, now);
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
