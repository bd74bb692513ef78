/**
 * What a browser receives from a host that applies public/_headers, and the canary that proves the
 * fixture fails a test on a CSP violation. (The build itself refuses an unfilled placeholder, a
 * permissive policy and a published secret: build-time/finish-build.ts, unit-tested there.)
 */
import { parseCsp, strictPolicyProblems } from "../../build-time/csp";
import { expect, test } from "../support/fixtures";

for (const target of ["/", "/some/missing/path"]) {
  test(`${target}: CSP (no unsafe-inline scripts, connect-src limited to the backend, no framing) and the other headers`, async ({
    request,
    backend,
  }) => {
    const headers = (await request.get(target)).headers();
    const policy = headers["content-security-policy"] ?? "";
    // What the build itself refuses (build-time/csp.ts): loose script sources, connect-src beyond
    // the backend. Then exactly what the site allows: the page proof's worker from the site only.
    expect(strictPolicyProblems(policy, backend.url)).toEqual([]);
    const csp = parseCsp(policy);
    const exact = ["default-src", "base-uri", "worker-src", "frame-ancestors", "object-src"];
    expect(exact.map((name) => csp.get(name))).toEqual([
      ["'self'"],
      ["'self'"],
      ["'self'"],
      ["'none'"],
      ["'none'"],
    ]);
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["referrer-policy"]).toBeTruthy();
    expect(headers["permissions-policy"]).toBeTruthy();
    expect(headers["strict-transport-security"]).toMatch(/max-age=\d{7,}/);
  });
}

test("the policy blocks an injected inline script, and these tests notice violations", async ({
  page,
  diagnostics,
}) => {
  await page.goto("/");
  await page.evaluate(() => {
    const script = document.createElement("script");
    script.textContent = "window.__injected = true;";
    document.body.append(script);
  });
  await expect.poll(() => diagnostics.cspViolations.length).toBe(1);
  expect(diagnostics.cspViolations[0]).toMatch(/^script-src(-elem)? blocked inline/);
  expect(await page.evaluate(() => "__injected" in window)).toBe(false);
  // This violation was the point of the test; Chrome also logs it as a console error.
  diagnostics.cspViolations.length = 0;
  diagnostics.allowErrors(/inline script violates the following Content Security Policy directive/);
});
