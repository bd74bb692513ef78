/**
 * `npm run preview [-- --no-build] [--port N (default 9000)]`: the production build served as a
 * static host would (404.html, public/_headers), the form talking to the embedded local backend
 * unless GATSBY_SUPABASE_URL and GATSBY_SUPABASE_ANON_KEY are set (environment or .env.production).
 */
import { spawnSync } from "node:child_process";

import { loadEnvFiles } from "../build-time/env-files";
import {
  describeSettingsProblems,
  resolveSupabaseSettings,
  SUPABASE_ANON_KEY_VARIABLE,
  SUPABASE_URL_VARIABLE,
} from "../build-time/supabase-settings";
import { ensureLocalBackend } from "../local-backend";
import { parseOptions, parsePort } from "../local-backend/cli-args";
import { runCli, withUsage } from "./lib/cli";
import { startStaticServer } from "./lib/static-server";
import { PROJECT_ROOT, PUBLIC_DIR } from "./lib/test-build";

const USAGE = "Usage: npm run preview -- [--no-build] [--port N]";

async function main(): Promise<number> {
  const { port, skipBuild } = withUsage(USAGE, () => {
    const values = parseOptions(process.argv.slice(2), {
      "no-build": { type: "boolean" },
      port: { type: "string" },
    });
    const port = values.port === undefined ? 9000 : parsePort(values.port, "--port");
    return { port, skipBuild: values["no-build"] ?? false };
  });

  loadEnvFiles("production");
  // Unlike a real production build, the preview falls back to the local backend's defaults.
  const resolution = resolveSupabaseSettings(process.env, false);
  if (!resolution.ok) {
    console.error(describeSettingsProblems(resolution.problems));
    return 1;
  }
  const { url: supabaseUrl, anonKey } = resolution.settings;
  process.env[SUPABASE_URL_VARIABLE] = supabaseUrl;
  process.env[SUPABASE_ANON_KEY_VARIABLE] = anonKey;

  if (!skipBuild) {
    const gatsby = [require.resolve("gatsby/cli.js"), "build"];
    const env = { ...process.env, NODE_ENV: "production" };
    const built = spawnSync(process.execPath, gatsby, { cwd: PROJECT_ROOT, env, stdio: "inherit" });
    if (built.status !== 0) return built.status ?? 1;
  }

  const ensured = await ensureLocalBackend({
    supabaseUrl,
    log: (line) => console.log(`[backend] ${line}`),
  });
  if (ensured.kind === "already-running") console.warn(`[backend] ${ensured.message}`);

  const site = await startStaticServer({ root: PUBLIC_DIR, port });
  console.log(
    `\nProduction build at ${site.url.replace("127.0.0.1", "localhost")} (form → ${supabaseUrl}). Ctrl-C to stop.`,
  );

  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  await site.close();
  if (ensured.kind === "started") await ensured.backend.close();
  return 0;
}

runCli(main);
