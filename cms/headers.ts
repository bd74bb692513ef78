/**
 * The HTTP headers /admin/ needs, as a `_headers` rule. The CMS is a different kind of page from
 * the landing page: Svelte puts its component styles in <style> elements and style="" attributes
 * (so style-src needs 'unsafe-inline'), pictures are previewed from blob: and data: URLs, the
 * preview pane is a frame whose document is a blob: URL (it inherits this policy), and
 * signing in with GitHub talks to api.github.com. It never needs 'unsafe-eval', and it loads
 * nothing from other hosts (cms/sveltia.ts serves its fonts from /admin/).
 */
import { ADMIN_PATH } from "./admin-files";

export const ADMIN_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' blob: data: https://avatars.githubusercontent.com",
  "media-src 'self' blob:",
  "font-src 'self'",
  // GitHub's API (sign-in, reading and committing files) and its status page (an outage notice).
  "connect-src 'self' blob: data: https://api.github.com https://www.githubstatus.com",
  "worker-src 'self' blob:",
  // The preview pane: Sveltia CMS writes its document (the page's stylesheet and the section) to a blob: URL.
  "frame-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

export const ADMIN_HEADERS: ReadonlyArray<readonly [name: string, value: string]> = [
  ["Content-Security-Policy", ADMIN_CONTENT_SECURITY_POLICY],
  // "Sign In with GitHub" opens the OAuth client (CMS_AUTH_URL) in a popup that reports back to
  // this page through window.opener; the site's "same-origin" would cut that link, so the sign-in
  // window would never close. Popups keep their opener; other pages still cannot reach this one.
  ["Cross-Origin-Opener-Policy", "same-origin-allow-popups"],
  ["X-Robots-Tag", "noindex, nofollow"],
];

/** Headers the site-wide rule also sets: detached first, so the host sends only /admin/'s value. */
const REPLACED_SITE_HEADERS = ["Content-Security-Policy", "Cross-Origin-Opener-Policy"];

/**
 * The `_headers` rule for /admin/ (one header a line, as hosts read it), as static/_headers holds it.
 * It comes after the site-wide rule; "! Content-Security-Policy" drops the site's policy first on
 * Cloudflare Pages (which would otherwise enforce both; the same for the opener policy), Netlify
 * ignores that line and applies the later rule's value (see build-time/headers-file.ts).
 */
export function adminHeadersRule(): string {
  return [
    `${ADMIN_PATH}*`,
    ...REPLACED_SITE_HEADERS.map((name) => `  ! ${name}`),
    ...ADMIN_HEADERS.map(([name, value]) => `  ${name}: ${value}`),
  ].join("\n");
}
