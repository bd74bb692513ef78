import { parseCsp } from "../../build-time/csp";
import { expect, test } from "../support/fixtures";

// The build itself refuses a _headers file with an unfilled placeholder or a permissive policy,
// and a build that would publish a secret (build-time/finish-build.ts, unit-tested there). These
// tests check what a browser receives from a host that applies public/_headers.
test.describe("security headers, served from public/_headers", () => {
  for (const target of ["/", "/some/missing/path"]) {
    test(`${target}: CSP (no unsafe-inline scripts, connect-src limited to the backend, no framing) and the other headers`, async ({
      request,
      backend,
    }) => {
      const response = await request.get(target);
      const headers = response.headers();
      const policy = headers["content-security-policy"];
      expect(policy, "Content-Security-Policy header").toBeTruthy();
      const csp = parseCsp(policy!);
      expect(csp.get("default-src")).toEqual(["'self'"]);
      expect(
        csp.get("script-src") ?? [],
        "scripts: no 'unsafe-inline' or 'unsafe-eval'",
      ).not.toEqual(expect.arrayContaining(["'unsafe-inline'"]));
      expect(csp.get("script-src") ?? []).not.toEqual(expect.arrayContaining(["'unsafe-eval'"]));
      expect(csp.get("connect-src")).toEqual(["'self'", backend.url]);
      expect(csp.get("worker-src"), "the page proof's worker: a same-origin file only").toEqual([
        "'self'",
      ]);
      expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
      expect(csp.get("object-src")).toEqual(["'none'"]);
      expect(csp.get("base-uri")).toEqual(["'self'"]);

      expect(headers["x-content-type-options"]).toBe("nosniff");
      expect(headers["referrer-policy"]).toBeTruthy();
      expect(headers["permissions-policy"]).toBeTruthy();
      expect(headers["strict-transport-security"]).toMatch(/max-age=\d{7,}/);
    });
  }
});

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
  expect(
    await page.evaluate(() => (window as unknown as { __injected?: boolean }).__injected),
  ).toBeUndefined();
  // This violation was the point of the test; Chrome also logs it as a console error.
  diagnostics.cspViolations.length = 0;
  diagnostics.allowErrors(/inline script violates the following Content Security Policy directive/);
});
