import { normalizeCsp, strictPolicyProblems } from "./csp";

it("normalizeCsp collapses whitespace and duplicates, and keeps valueless directives", () => {
  expect(
    normalizeCsp("  default-src  'self' 'self' ;; style-src ; upgrade-insecure-requests; "),
  ).toBe("default-src 'self'; style-src 'none'; upgrade-insecure-requests");
});

describe("strictPolicyProblems", () => {
  const origin = "https://x.supabase.co";
  const good = `default-src 'self'; script-src 'self' 'sha256-a'; style-src-elem 'self'; connect-src 'self' ${origin}; object-src 'none'; base-uri 'self'; frame-ancestors 'none'`;

  it("finds none in the strict policy", () => {
    expect(strictPolicyProblems(good, origin)).toEqual([]);
  });

  it.each([
    ["script-src 'self'", "script-src 'self' 'unsafe-inline'", "script-src allows 'unsafe-inline'"],
    ["script-src 'self'", "script-src 'self' 'unsafe-eval'", "script-src allows 'unsafe-eval'"],
    ["script-src 'self'", "script-src 'self' https:", "script-src allows https:"],
    ["base-uri", "worker-src 'self' blob:; base-uri", "worker-src allows blob:"],
    [
      "style-src-elem 'self'",
      "style-src-elem 'self' 'unsafe-inline'",
      "style-src-elem allows 'unsafe-inline'",
    ],
    [
      "base-uri",
      "style-src-attr 'unsafe-inline'; base-uri",
      "style-src-attr allows 'unsafe-inline'",
    ],
    [
      `connect-src 'self' ${origin}`,
      `connect-src 'self' ${origin} https://evil.example`,
      `connect-src allows more than 'self' and ${origin}: https://evil.example`,
    ],
    [`connect-src 'self' ${origin}`, "connect-src 'self'", `connect-src does not allow ${origin}`],
    ["frame-ancestors 'none'", "frame-ancestors 'self'", "frame-ancestors is not 'none'"],
    ["object-src 'none'; ", "", "object-src is missing"],
  ])("refuses the policy with %j as %j: %s", (from, to, problem) => {
    expect(strictPolicyProblems(good.replace(from, to), origin)).toContain(problem);
  });
});
