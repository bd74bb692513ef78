/** Which campaign brought the visitor: what every counted event of the visit is filed under. */
export type Campaign = { source: string; medium: string; campaign: string };

/** The medium a short `?src=` tag stands for: printed QR codes (flyers, booth signs, badges). */
export const SRC_TAG_MEDIUM = "qr";

/**
 * A campaign tag as the database stores it: lower case, spaces as "-", only a–z, 0–9, ".", "_"
 * and "-", starting with a letter or digit, at most 40 characters (the constraint in
 * supabase/migrations/20261124200000_site_analytics.sql). Anything else is dropped.
 */
export function campaignTag(value: string | null | undefined): string {
  return (value ?? "")
    .trim()
    .toLowerCase()
    .replace(/\s+/g, "-")
    .replace(/[^a-z0-9._-]/g, "")
    .replace(/^[._-]+/, "")
    .slice(0, 40);
}

/**
 * The campaign in a page address's query: `utm_source`, `utm_medium`, `utm_campaign` (links in
 * e-mails, posts, ads), or else the short `?src=<tag>` of a printed QR code, which means source
 * <tag>, medium "qr". No tag at all: every field empty (direct visits, links without tags).
 */
export function campaignFrom(search: string): Campaign {
  const query = new URLSearchParams(search);
  const source = campaignTag(query.get("utm_source"));
  const medium = campaignTag(query.get("utm_medium"));
  const campaign = campaignTag(query.get("utm_campaign"));
  if (source || medium || campaign) return { source, medium, campaign };
  const src = campaignTag(query.get("src"));
  return src
    ? { source: src, medium: SRC_TAG_MEDIUM, campaign: "" }
    : { source: "", medium: "", campaign: "" };
}
