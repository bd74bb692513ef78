import { containsSupabaseJs, formatKb, formatMs } from "./budgets";

test.each([
  ['headers:{"X-Client-Info":"supabase-js-web/2.104.1"}', true],
  ["throw new Error('@supabase/auth-js: session missing')", true],
  ["class PostgrestQueryBuilder{}", true],
  ["// @supabase/realtime-js", true],
  // The page's own code, which only names the backend.
  ['fetch("https://abc.supabase.co/rest/v1/contacts");import("./submit-meeting-request")', false],
])("containsSupabaseJs(%s) is %s", (script, expected) => {
  expect(containsSupabaseJs(script)).toBe(expected);
});

test.each([
  [formatKb(84_787), "82.8 KB"],
  [formatKb(0), "0.0 KB"],
  [formatMs(999.4), "999 ms"],
  [formatMs(1400), "1.40 s"],
])("figures are written with their unit: %s", (written, expected) => {
  expect(written).toBe(expected);
});
