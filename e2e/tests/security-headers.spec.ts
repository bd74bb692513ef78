import fs from "node:fs";
import path from "node:path";
import { findSecretsInDirectory, formatFindings } from "../../build-time/public-secrets";
import { PUBLIC_DIR } from "../../tools/lib/test-build";
import { expect, test } from "../support/fixtures";

/** Directives of a Content-Security-Policy header, by name. */
function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(";")
      .map((part) => part.trim().split(/\s+/))
      .filter((tokens) => tokens[0])
      .map(([name, ...values]) => [name!.toLowerCase(), values]),
  );
}

test.describe("security headers, served from public/_headers", () => {
  test("public/_headers has every placeholder filled in", () => {
    const text = fs.readFileSync(path.join(PUBLIC_DIR, "_headers"), "utf8");
    const unfilled = text.split("\n").filter((line) => !line.trim().startsWith("#") && /\{\{[^}]*\}\}/.test(line));
    expect(unfilled).toEqual([]);
  });

  for (const target of ["/", "/some/missing/path"]) {
    test(`${target}: CSP (no unsafe-inline scripts, connect-src limited to the backend, no framing) and the other headers`, async ({ request, backend }) => {
      const response = await request.get(target);
      const headers = response.headers();
      const policy = headers["content-security-policy"];
      expect(policy, "Content-Security-Policy header").toBeTruthy();
      const csp = directives(policy!);
      expect(csp.get("default-src")).toEqual(["'self'"]);
      expect(csp.get("script-src") ?? [], "scripts: no 'unsafe-inline' or 'unsafe-eval'").not.toEqual(expect.arrayContaining(["'unsafe-inline'"]));
      expect(csp.get("script-src") ?? []).not.toEqual(expect.arrayContaining(["'unsafe-eval'"]));
      expect(csp.get("connect-src")).toEqual(["'self'", backend.url]);
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

test("the build in public/ holds no secret: only the anon key", async () => {
  const { files, findings } = await findSecretsInDirectory(PUBLIC_DIR);
  expect(files).toBeGreaterThan(0);
  expect(formatFindings(findings), "secrets in public/").toBe(formatFindings([]));
});

test("the policy blocks an injected inline script, and these tests notice violations", async ({ page, diagnostics }) => {
  await page.goto("/");
  await page.evaluate(() => {
    const script = document.createElement("script");
    script.textContent = "window.__injected = true;";
    document.body.append(script);
  });
  await expect.poll(() => diagnostics.cspViolations.length).toBe(1);
  expect(diagnostics.cspViolations[0]).toMatch(/^script-src(-elem)? blocked inline/);
  expect(await page.evaluate(() => (window as unknown as { __injected?: boolean }).__injected)).toBeUndefined();
  // This violation was the point of the test; Chrome also logs it as a console error.
  diagnostics.cspViolations.length = 0;
  diagnostics.allowErrors(/inline script violates the following Content Security Policy directive/);
});
