/** A well-formed JWT with these claims; its signature is never checked where tests use it. */
export function unsignedJwt(payload: Record<string, unknown>): string {
  const part = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${part({ alg: "HS256", typ: "JWT" })}.${part(payload)}.c2lnbmF0dXJlLW5vdC1jaGVja2Vk`;
}

/** What a project's service_role key looks like: the key that must never be published. */
export const SERVICE_ROLE_KEY = unsignedJwt({
  iss: "supabase-demo",
  role: "service_role",
  exp: 1983812996,
});
