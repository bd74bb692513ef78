import { LOCAL_ANON_KEY } from "./local-backend-defaults";
import { decodeJwt, jwtRole, unpublishableKeyReason } from "./supabase-keys";

const serviceRoleKey = [
  Buffer.from(JSON.stringify({ alg: "HS256", typ: "JWT" })).toString("base64url"),
  Buffer.from(JSON.stringify({ iss: "supabase-demo", role: "service_role" })).toString("base64url"),
  "signature",
].join(".");

describe("decodeJwt", () => {
  it("reads the local anon key's claims", () => {
    expect(decodeJwt(LOCAL_ANON_KEY)?.payload).toEqual({ iss: "supabase-demo", role: "anon", exp: 1983812996 });
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
    expect(jwtRole(serviceRoleKey)).toBe("service_role");
    expect(jwtRole("not-a-jwt")).toBeUndefined();
  });
});

describe("unpublishableKeyReason", () => {
  it("allows the anon key and refuses service_role and secret keys", () => {
    expect(unpublishableKeyReason(LOCAL_ANON_KEY)).toBeUndefined();
    expect(unpublishableKeyReason(serviceRoleKey)).toBe("holds a service_role key");
    expect(unpublishableKeyReason("sb_secret_abcdefgh12345678")).toBe("holds a secret key (sb_secret_…)");
  });
});
