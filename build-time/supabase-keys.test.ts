import { LOCAL_ANON_KEY } from "./local-backend-defaults";
import { decodeJwt, unpublishableKeyReason } from "./supabase-keys";
import { SERVICE_ROLE_KEY } from "./test-keys.test-support";

it("decodeJwt reads the local anon key's claims, and nothing from text that only looks like a JWT (no alg)", () => {
  expect(decodeJwt(LOCAL_ANON_KEY)?.payload).toEqual({
    iss: "supabase-demo",
    role: "anon",
    exp: 1983812996,
  });
  const header = Buffer.from(JSON.stringify({ typ: "JWT" })).toString("base64url");
  expect(decodeJwt(`${header}.e30.x`)).toBeUndefined();
  expect(decodeJwt("not-a-jwt")).toBeUndefined();
});

it.each([
  [LOCAL_ANON_KEY, undefined],
  ["not-a-jwt", undefined],
  [SERVICE_ROLE_KEY, "holds a service_role key"],
  ["sb_secret_abcdefgh12345678", "holds a secret key (sb_secret_…)"],
])("unpublishableKeyReason(%s) is %j", (key, reason) => {
  expect(unpublishableKeyReason(key)).toBe(reason);
});
