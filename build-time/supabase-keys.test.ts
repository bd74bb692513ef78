import { SERVICE_ROLE_KEY } from "./test-keys.test-support";
import { LOCAL_ANON_KEY } from "./local-backend-defaults";
import { decodeJwt, jwtRole, unpublishableKeyReason } from "./supabase-keys";

describe("decodeJwt", () => {
  it("reads the local anon key's claims", () => {
    expect(decodeJwt(LOCAL_ANON_KEY)?.payload).toEqual({
      iss: "supabase-demo",
      role: "anon",
      exp: 1983812996,
    });
  });

  it("is undefined for text that only looks like a JWT (no alg in its header)", () => {
    const header = Buffer.from(JSON.stringify({ typ: "JWT" })).toString("base64url");
    expect(decodeJwt(`${header}.e30.x`)).toBeUndefined();
    expect(decodeJwt("not-a-jwt")).toBeUndefined();
  });
});

describe("jwtRole", () => {
  it("reads the role claim of the anon and service keys", () => {
    expect(jwtRole(LOCAL_ANON_KEY)).toBe("anon");
    expect(jwtRole(SERVICE_ROLE_KEY)).toBe("service_role");
    expect(jwtRole("not-a-jwt")).toBeUndefined();
  });
});

describe("unpublishableKeyReason", () => {
  it("allows the anon key and refuses service_role and secret keys", () => {
    expect(unpublishableKeyReason(LOCAL_ANON_KEY)).toBeUndefined();
    expect(unpublishableKeyReason(SERVICE_ROLE_KEY)).toBe("holds a service_role key");
    expect(unpublishableKeyReason("sb_secret_abcdefgh12345678")).toBe(
      "holds a secret key (sb_secret_…)",
    );
  });
});
