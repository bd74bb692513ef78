/**
 * /admin/'s headers in static/_headers: its own policy, which never allows eval or other hosts'
 * scripts, noindex and a popup-friendly opener policy. The site's own headers elsewhere:
 * build-time/security-headers.test.ts.
 */
import fs from "node:fs";
import path from "node:path";
import { headersForPath, parseHeadersFile } from "../build-time/headers-file";

const rules = parseHeadersFile(
  fs.readFileSync(path.join(__dirname, "..", "static", "_headers"), "utf8"),
);
const admin = headersForPath(rules, "/admin/");

// That /admin/'s rule detaches the site's policy: every build's writeSecurityHeaders refuses a
// header set twice for a published path (security-headers.test.ts, validateHeadersFile).
it("gives /admin/ a policy of its own that never allows eval, inline scripts or other hosts' scripts", () => {
  const policy = admin["content-security-policy"];
  expect(/(?:^|; )script-src ([^;]*)/.exec(policy ?? "")?.[1]).toBe("'self'");
  expect(policy).not.toContain("unsafe-eval");
  expect(policy).toContain("frame-src 'self' blob:");
  expect(policy).toContain("connect-src 'self' blob: data: https://api.github.com");
});

it("keeps /admin/ out of search engines and lets the sign-in popup report back", () => {
  expect(admin).toMatchObject({
    "x-robots-tag": "noindex, nofollow",
    "x-frame-options": "DENY",
    "cross-origin-opener-policy": "same-origin-allow-popups",
  });
});
