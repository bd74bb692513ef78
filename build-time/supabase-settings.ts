import { unpublishableKeyReason } from "./supabase-keys";
import { LOCAL_ANON_KEY, LOCAL_BACKEND_URL } from "./local-backend-defaults";

export const SUPABASE_URL_VARIABLE = "GATSBY_SUPABASE_URL";
export const SUPABASE_ANON_KEY_VARIABLE = "GATSBY_SUPABASE_ANON_KEY";

/** `usesLocalDefaults`: the development defaults (the embedded local backend) were filled in. */
type SettingsResolution =
  | { ok: true; settings: { url: string; anonKey: string; usesLocalDefaults: boolean } }
  | { ok: false; problems: string[] };

type Environment = Readonly<Record<string, string | undefined>>;

/**
 * Which Supabase project the built site talks to: a production build must name one (a form that
 * stores nothing is the worst failure); development falls back to the local backend.
 */
export function resolveSupabaseSettings(
  env: Environment,
  isProduction: boolean,
): SettingsResolution {
  const url = env[SUPABASE_URL_VARIABLE]?.trim() ?? "";
  const anonKey = env[SUPABASE_ANON_KEY_VARIABLE]?.trim() ?? "";

  if (!url && !anonKey && !isProduction) {
    return {
      ok: true,
      settings: { url: LOCAL_BACKEND_URL, anonKey: LOCAL_ANON_KEY, usesLocalDefaults: true },
    };
  }

  const problems: string[] = [];
  if (!url) problems.push(`${SUPABASE_URL_VARIABLE} is not set.`);
  else if (!/^https?:$/.test(URL.canParse(url) ? new URL(url).protocol : ""))
    problems.push(
      `${SUPABASE_URL_VARIABLE} must be an http(s) URL such as https://your-project.supabase.co (got "${url}").`,
    );
  const keyReason = anonKey ? unpublishableKeyReason(anonKey) : undefined;
  if (!anonKey) problems.push(`${SUPABASE_ANON_KEY_VARIABLE} is not set.`);
  else if (keyReason)
    problems.push(
      `${SUPABASE_ANON_KEY_VARIABLE} ${keyReason}. That key bypasses every database rule and would be published in the page: use the project's anon (publishable) key.`,
    );
  return problems.length > 0
    ? { ok: false, problems }
    : { ok: true, settings: { url, anonKey, usesLocalDefaults: false } };
}

/** The message a person sees when the build refuses to run without Supabase settings. */
export function describeSettingsProblems(problems: readonly string[]): string {
  return [
    "The site cannot be built without working Supabase settings, or its meeting-request form would not work:",
    ...problems.map((problem) => `  - ${problem}`),
    `Set ${SUPABASE_URL_VARIABLE} and ${SUPABASE_ANON_KEY_VARIABLE} in the environment, or copy .env.example to .env.production and fill in your project's API URL and anon key (Supabase dashboard → Project Settings → API).`,
  ].join("\n");
}
