/**
 * /admin/'s headers: static/_headers holds the rule cms/headers.ts defines, the site's own policy
 * stays as it is everywhere else, and the editor's policy never allows eval or other hosts' scripts.
 */
import fs from "node:fs";
import path from "node:path";
import { headersForPath, parseHeadersFile } from "../build-time/headers-file";
import { ADMIN_CONTENT_SECURITY_POLICY, adminHeadersRule } from "./headers";

const template = fs.readFileSync(path.join(__dirname, "..", "static", "_headers"), "utf8");
const rules = parseHeadersFile(template);

it("static/_headers holds the /admin/ rule of cms/headers.ts, after the site-wide rule", () => {
  expect(template).toContain(`\n${adminHeadersRule()}\n`);
  expect(rules.findIndex((rule) => rule.pattern === "/admin/*")).toBeGreaterThan(
    rules.findIndex((rule) => rule.pattern === "/*"),
  );
});

it("gives /admin/ its own policy and noindex, and leaves the landing page's policy alone", () => {
  const admin = headersForPath(rules, "/admin/");
  expect(admin["content-security-policy"]).toBe(ADMIN_CONTENT_SECURITY_POLICY);
  expect(admin["x-robots-tag"]).toBe("noindex, nofollow");
  expect(admin["x-frame-options"]).toBe("DENY");
  // The OAuth sign-in popup reports back through window.opener, which "same-origin" would cut.
  expect(admin["cross-origin-opener-policy"]).toBe("same-origin-allow-popups");
  expect(headersForPath(rules, "/")["cross-origin-opener-policy"]).toBe("same-origin");
  const landing = headersForPath(rules, "/")["content-security-policy"];
  expect(landing).toContain("{{inline-script-hashes}}");
  expect(landing).not.toContain("unsafe-inline");
  expect(headersForPath(rules, "/")).not.toHaveProperty("x-robots-tag");
});

it("never allows eval, inline scripts or scripts from other hosts on /admin/", () => {
  const scriptSources = /(?:^|; )script-src ([^;]*)/.exec(ADMIN_CONTENT_SECURITY_POLICY)?.[1];
  expect(scriptSources).toBe("'self'");
  expect(ADMIN_CONTENT_SECURITY_POLICY).not.toContain("unsafe-eval");
});
