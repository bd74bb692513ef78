/**
 * The link to the site's booking page in every staff e-mail about a request (docs/booking.md):
 * SITE_URL/book/#<token>, the token 32 random bytes (base64url) that only the e-mail holds; the
 * database keeps its SHA-256 (public.issue_booking_links, one call per e-mail). The fragment
 * never reaches a server's logs. Without SITE_URL, e-mails carry no link.
 */
import type { BookingLinks } from "./compose.ts";

type Rpc = (name: string, args: Record<string, unknown>) => Promise<unknown>;

export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

export function newToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** A new link for each request, stored before the e-mail that carries them is sent. */
export function bookingLinks(siteUrl: string, rpc: Rpc) {
  return async (ids: number[]): Promise<BookingLinks> => {
    const tokens = ids.map(() => newToken());
    const hashes = await Promise.all(tokens.map(sha256Hex));
    const links = ids.map((id, i) => ({ contact_id: id, token_hash: hashes[i] }));
    await rpc("issue_booking_links", { links });
    return new Map(ids.map((id, i) => [id, `${siteUrl}/book/#${tokens[i]}`]));
  };
}
