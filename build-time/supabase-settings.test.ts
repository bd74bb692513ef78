import { LOCAL_ANON_KEY, LOCAL_BACKEND_URL } from "./local-backend-defaults";
import { describeSettingsProblems, resolveSupabaseSettings } from "./supabase-settings";
import { SERVICE_ROLE_KEY } from "./test-keys.test-support";

const PROJECT_URL = "https://abc.supabase.co";

describe("resolveSupabaseSettings", () => {
  it.each([
    ["the embedded local backend in development when nothing is configured", {}, false],
    [
      "an explicit project",
      { GATSBY_SUPABASE_URL: ` ${PROJECT_URL} `, GATSBY_SUPABASE_ANON_KEY: LOCAL_ANON_KEY },
      true,
    ],
  ])("uses %s", (_title, env, isProduction) => {
    const url = isProduction ? PROJECT_URL : LOCAL_BACKEND_URL;
    expect(resolveSupabaseSettings(env, isProduction)).toEqual({
      ok: true,
      settings: { url, anonKey: LOCAL_ANON_KEY, usesLocalDefaults: !isProduction },
    });
  });

  it.each<[string, Record<string, string>, boolean, RegExp]>([
    [
      "a production build without settings, naming both",
      {},
      true,
      /URL is not set.*KEY is not set/,
    ],
    [
      "a production build with only the URL",
      { GATSBY_SUPABASE_URL: PROJECT_URL },
      true,
      /^GATSBY_SUPABASE_ANON_KEY is not set\.$/,
    ],
    [
      "half a configuration in development too",
      { GATSBY_SUPABASE_ANON_KEY: LOCAL_ANON_KEY },
      false,
      /URL is not set/,
    ],
    [
      "a URL that is not http(s)",
      { GATSBY_SUPABASE_URL: "abc.supabase.co", GATSBY_SUPABASE_ANON_KEY: LOCAL_ANON_KEY },
      true,
      /must be an http\(s\) URL/,
    ],
    [
      "a service_role key, which would publish full database access",
      { GATSBY_SUPABASE_URL: PROJECT_URL, GATSBY_SUPABASE_ANON_KEY: SERVICE_ROLE_KEY },
      true,
      /holds a service_role key/,
    ],
    [
      "a secret key",
      { GATSBY_SUPABASE_URL: PROJECT_URL, GATSBY_SUPABASE_ANON_KEY: "sb_secret_abcdefgh12345678" },
      true,
      /holds a secret key \(sb_secret_…\)/,
    ],
  ])("refuses %s", (_title, env, isProduction, problems) => {
    const result = resolveSupabaseSettings(env, isProduction);
    expect(result.ok ? "" : result.problems.join(" ")).toMatch(problems);
  });

  it("explains what to do, pointing at .env.example", () => {
    const message = describeSettingsProblems(["GATSBY_SUPABASE_URL is not set."]);
    expect(message).toMatch(
      /GATSBY_SUPABASE_URL[\s\S]*GATSBY_SUPABASE_ANON_KEY[\s\S]*\.env\.example/,
    );
  });
});
