/**
 * `npm start`: the whole site on this machine, in one terminal.
 *
 * Starts the embedded local backend (PGlite behind a PostgREST-style server on 127.0.0.1:54321,
 * data kept in .data/local-supabase) and `gatsby develop` on http://localhost:8000. One Ctrl-C
 * stops both; committed meeting requests are kept. When .env points at a hosted Supabase
 * project, only `gatsby develop` runs. Extra arguments go to `gatsby develop`.
 */
import { spawn } from "node:child_process";

import { loadEnvFiles } from "../build-time/env-files";
import { describeSettingsProblems, resolveSupabaseSettings } from "../build-time/supabase-settings";
import { ensureLocalBackend } from "../local-backend";
import { onStopRequest } from "../local-backend/stop-signals";
import { runCli } from "./lib/cli";

async function main(): Promise<number> {
  loadEnvFiles("development");
  const resolution = resolveSupabaseSettings(process.env, false);
  if (!resolution.ok) {
    console.error(describeSettingsProblems(resolution.problems));
    return 1;
  }

  const ensured = await ensureLocalBackend({
    supabaseUrl: resolution.settings.url,
    notify: true,
    log: (line) => console.log(`[backend] ${line}`),
  });
  if (ensured.kind === "started") {
    console.log(
      `[backend] ready at ${ensured.url} (data in ${ensured.backend.dataDir}); list requests with: npm run requests`,
    );
  } else if (ensured.kind === "already-running") {
    console.warn(`[backend] ${ensured.message}`);
  } else {
    console.log(
      `Using the Supabase project at ${ensured.url} (from .env); the local backend is not started.`,
    );
  }

  const develop = [require.resolve("gatsby/cli.js"), "develop", ...process.argv.slice(2)];
  const gatsby = spawn(process.execPath, develop, { stdio: "inherit" });

  let stopping = false;
  onStopRequest({
    stop: () => {
      stopping = true;
      // The terminal sends Ctrl-C to gatsby too; this covers a `kill` of this process or of npm.
      if (gatsby.exitCode === null) gatsby.kill("SIGTERM");
    },
  });

  const exitCode = await new Promise<number>((resolve) => {
    gatsby.on("exit", (code, signal) => resolve(code ?? (signal ? 130 : 1)));
    gatsby.on("error", (error) => {
      console.error(`Could not start gatsby develop: ${error.message}`);
      resolve(1);
    });
  });
  if (ensured.kind === "started") {
    await ensured.backend.close();
    console.log("[backend] stopped; meeting requests are kept.");
  }
  return stopping ? 0 : exitCode;
}

runCli(main);
