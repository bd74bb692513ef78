import { containsSupabaseJs, formatKb } from "./budgets";

describe("containsSupabaseJs", () => {
  it.each([
    ['headers:{"X-Client-Info":"supabase-js-web/2.104.1"}'],
    ["throw new Error('@supabase/auth-js: session missing')"],
    ["class PostgrestQueryBuilder{}"],
    ["// @supabase/realtime-js"],
  ])("recognises %s", (script) => {
    expect(containsSupabaseJs(script)).toBe(true);
  });

  it("does not flag the page's own code that only names the backend", () => {
    expect(
      containsSupabaseJs(
        'fetch("https://abc.supabase.co/rest/v1/contacts");import("./submit-meeting-request")',
      ),
    ).toBe(false);
  });
});

describe("formatKb", () => {
  it("prints kibibytes with one decimal", () => {
    expect(formatKb(84_787)).toBe("82.8 KB");
    expect(formatKb(0)).toBe("0.0 KB");
  });
});
