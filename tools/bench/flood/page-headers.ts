/**
 * The headers the page sends, as the attacker copies them from its code (and as the bench checks
 * against a real visitor's request in Chromium: pageHeaderDifferences).
 * - `rpc/form_challenge`: the page's own fetch (src/lib/submit-meeting-request.ts, callFunction).
 * - the insert: supabase-js's (apikey, Bearer, its X-Client-Info as in a browser, Content-Profile,
 *   Content-Type) and the page's x-form-proof (contactsInsertHeaders).
 */
import { createRequire } from "node:module";

import { FORM_PROOF_HEADER } from "../../../src/lib/form-proof";

const supabaseVersion = (
  createRequire(__filename)("@supabase/supabase-js/package.json") as { version: string }
).version;

/** supabase-js's X-Client-Info when it runs in a browser (JS_ENV "web"). */
export const CLIENT_INFO = `supabase-js-web/${supabaseVersion}`;

/** The public anon key as apikey and Bearer, and JSON: the page's `rpc/form_challenge` call; the direct flood's POSTs. */
export function anonKeyHeaders(anonKey: string): Record<string, string> {
  return {
    apikey: anonKey,
    Authorization: `Bearer ${anonKey}`,
    "Content-Type": "application/json",
  };
}

export function insertHeaders(anonKey: string, proof: string): Record<string, string> {
  return {
    "X-Client-Info": CLIENT_INFO,
    apikey: anonKey,
    Authorization: `Bearer ${anonKey}`,
    "Content-Profile": "public",
    "Content-Type": "application/json",
    [FORM_PROOF_HEADER]: proof,
  };
}

/** Headers the browser adds on its own: not the page's code, so not compared. */
const BROWSER_ADDED =
  /^(accept|accept-language|accept-encoding|user-agent|referer|origin|host|connection|content-length|cookie|sec-.*)$/;

/**
 * How the headers a real visitor's page sent with its insert differ from the attacker's
 * (names, and values except the proof's); [] when they are the same.
 */
export function pageHeaderDifferences(page: Record<string, string>, anonKey: string): string[] {
  const ours = Object.fromEntries(
    Object.entries(insertHeaders(anonKey, "")).map(([name, value]) => [name.toLowerCase(), value]),
  );
  const theirs = Object.fromEntries(
    Object.entries(page)
      .filter(([name]) => !BROWSER_ADDED.test(name.toLowerCase()))
      .map(([name, value]) => [name.toLowerCase(), value]),
  );
  const differences: string[] = [];
  for (const name of new Set([...Object.keys(ours), ...Object.keys(theirs)])) {
    if (!(name in theirs)) differences.push(`${name} only in the attacker's`);
    else if (!(name in ours)) differences.push(`${name}: ${theirs[name]} only in the page's`);
    else if (name !== FORM_PROOF_HEADER && ours[name] !== theirs[name])
      differences.push(`${name}: page "${theirs[name]}", attacker "${ours[name]}"`);
  }
  return differences;
}
