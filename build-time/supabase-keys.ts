/**
 * What a Supabase API key is, decided in one place: the build's settings check, the secret scan of
 * public/ and the local backend's gateway all read keys through these functions.
 */

/** The prefix of Supabase's new-style secret keys, which must never reach a browser. */
export const SECRET_KEY_PREFIX = "sb_secret_";

type DecodedJwt = {
  header: Record<string, unknown>;
  payload: Record<string, unknown> | undefined;
};

/** Header and payload of a JWT, or undefined when the first segment is no JSON object with `alg`. */
export function decodeJwt(token: string): DecodedJwt | undefined {
  const [headerPart, payloadPart] = token.split(".");
  const header = decodeJsonSegment(headerPart);
  if (!header || typeof header.alg !== "string") return undefined;
  return { header, payload: decodeJsonSegment(payloadPart) };
}

/** Why a key must not be published (it bypasses every database rule), or undefined. */
export function unpublishableKeyReason(key: string): string | undefined {
  if (decodeJwt(key)?.payload?.role === "service_role") return "holds a service_role key";
  if (key.startsWith(SECRET_KEY_PREFIX)) return `holds a secret key (${SECRET_KEY_PREFIX}…)`;
  return undefined;
}

function decodeJsonSegment(segment: string | undefined): Record<string, unknown> | undefined {
  if (!segment) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, "base64url").toString("utf8"));
    return value && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
