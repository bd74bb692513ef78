import { SERVICE_ROLE_KEY } from "./test-keys.test-support";
import { LOCAL_ANON_KEY, LOCAL_BACKEND_URL } from "./local-backend-defaults";
import { describeSettingsProblems, resolveSupabaseSettings } from "./supabase-settings";

describe("resolveSupabaseSettings", () => {
  it("uses the embedded local backend in development when nothing is configured", () => {
    expect(resolveSupabaseSettings({}, false)).toEqual({
      ok: true,
      settings: { url: LOCAL_BACKEND_URL, anonKey: LOCAL_ANON_KEY, usesLocalDefaults: true },
    });
  });

  it("refuses a production build without settings, naming both variables", () => {
    const result = resolveSupabaseSettings({}, true);
    expect(result).toEqual({
      ok: false,
      problems: ["GATSBY_SUPABASE_URL is not set.", "GATSBY_SUPABASE_ANON_KEY is not set."],
    });
  });

  it("refuses a production build with only one of the two", () => {
    const result = resolveSupabaseSettings(
      { GATSBY_SUPABASE_URL: "https://abc.supabase.co" },
      true,
    );
    expect(result).toEqual({ ok: false, problems: ["GATSBY_SUPABASE_ANON_KEY is not set."] });
  });

  it("refuses half a configuration in development too, instead of guessing", () => {
    expect(resolveSupabaseSettings({ GATSBY_SUPABASE_ANON_KEY: LOCAL_ANON_KEY }, false).ok).toBe(
      false,
    );
  });

  it("accepts an explicit project", () => {
    expect(
      resolveSupabaseSettings(
        {
          GATSBY_SUPABASE_URL: " https://abc.supabase.co ",
          GATSBY_SUPABASE_ANON_KEY: LOCAL_ANON_KEY,
        },
        true,
      ),
    ).toEqual({
      ok: true,
      settings: {
        url: "https://abc.supabase.co",
        anonKey: LOCAL_ANON_KEY,
        usesLocalDefaults: false,
      },
    });
  });

  it("refuses a URL that is not http(s)", () => {
    const result = resolveSupabaseSettings(
      { GATSBY_SUPABASE_URL: "abc.supabase.co", GATSBY_SUPABASE_ANON_KEY: LOCAL_ANON_KEY },
      true,
    );
    expect(result.ok).toBe(false);
  });

  it("refuses a service_role key, which would publish full database access", () => {
    const result = resolveSupabaseSettings(
      {
        GATSBY_SUPABASE_URL: "https://abc.supabase.co",
        GATSBY_SUPABASE_ANON_KEY: SERVICE_ROLE_KEY,
      },
      true,
    );
    expect(result.ok).toBe(false);
    expect(result.ok ? "" : result.problems.join(" ")).toContain("service_role");
  });

  it("explains what to do, pointing at .env.example", () => {
    const message = describeSettingsProblems(["GATSBY_SUPABASE_URL is not set."]);
    expect(message).toContain("GATSBY_SUPABASE_URL");
    expect(message).toContain("GATSBY_SUPABASE_ANON_KEY");
    expect(message).toContain(".env.example");
  });
});
