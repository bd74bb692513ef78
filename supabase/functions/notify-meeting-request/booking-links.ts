/**
 * The link to the site's booking page in every staff e-mail about a request (docs/booking.md):
 * SITE_URL/book/#<token>, the token 32 random bytes (base64url) that only the e-mail holds; the
 * database keeps its SHA-256 (public.issue_booking_links, one call per e-mail). The fragment
 * never reaches a server's logs. Without SITE_URL, e-mails carry no link.
 */
import { createHash, randomBytes } from "node:crypto";

import type { BookingLinks } from "./compose.ts";

type Rpc = (name: string, args: Record<string, unknown>) => Promise<unknown>;

export const sha256Hex = (text: string): string => createHash("sha256").update(text).digest("hex");

/** A new link for each request, stored before the e-mail that carries them is sent. */
export function bookingLinks(siteUrl: string, rpc: Rpc) {
  return async (ids: number[]): Promise<BookingLinks> => {
    const tokens = ids.map(() => randomBytes(32).toString("base64url"));
    const links = ids.map((id, i) => ({ contact_id: id, token_hash: sha256Hex(tokens[i]!) }));
    await rpc("issue_booking_links", { links });
    return new Map(ids.map((id, i) => [id, `${siteUrl}/book/#${tokens[i]}`]));
  };
}
