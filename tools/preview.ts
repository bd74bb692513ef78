/**
 * `npm run preview`: the production build, served as a static host would serve it (404.html for
 * unknown paths, public/_headers applied), with the form talking to the embedded local backend.
 *
 *   npm run preview                 build, then serve on http://localhost:9000
 *   npm run preview -- --no-build   serve the existing public/ folder
 *   npm run preview -- --port 9100
 *
 * The build points at the local backend (127.0.0.1:54321) unless GATSBY_SUPABASE_URL and
 * GATSBY_SUPABASE_ANON_KEY are set in the environment or in .env.production.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { defaultDataDir, LocalBackendError, startLocalBackend } from "../local-backend";
import type { LocalBackend } from "../local-backend";
import { startStaticServer } from "./lib/static-server";
import { LOCAL_ANON_KEY, LOCAL_BACKEND_PORT, LOCAL_BACKEND_URL } from "../build-time/local-backend-defaults";
import { isLocalUrl, loadEnvFiles, portOf } from "../build-time/env-files";

const projectRoot = path.resolve(__dirname, "..");

function option(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

function build(env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [require.resolve("gatsby/cli.js"), "build"], { cwd: projectRoot, env, stdio: "inherit" });
    child.on("exit", (code) => resolve(code ?? 1));
    child.on("error", () => resolve(1));
  });
}

async function main(): Promise<number> {
  loadEnvFiles("production");
  if (!process.env.GATSBY_SUPABASE_URL && !process.env.GATSBY_SUPABASE_ANON_KEY) {
    process.env.GATSBY_SUPABASE_URL = LOCAL_BACKEND_URL;
    process.env.GATSBY_SUPABASE_ANON_KEY = LOCAL_ANON_KEY;
  }
  const supabaseUrl = process.env.GATSBY_SUPABASE_URL ?? LOCAL_BACKEND_URL;

  if (!process.argv.includes("--no-build")) {
    const code = await build({ ...process.env, NODE_ENV: "production" });
    if (code !== 0) return code;
  }

  let backend: LocalBackend | undefined;
  if (isLocalUrl(supabaseUrl)) {
    try {
      backend = await startLocalBackend({
        port: portOf(supabaseUrl, LOCAL_BACKEND_PORT),
        dataDir: process.env.LOCAL_BACKEND_DATA_DIR || defaultDataDir(),
        log: (line) => console.log(`[backend] ${line}`),
      });
    } catch (error) {
      if (!(error instanceof LocalBackendError && error.kind === "port-in-use")) throw error;
      console.warn(`[backend] ${error.message} Assuming a backend already runs there.`);
    }
  }

  const port = Number(option("--port") ?? 9000);
  const site = await startStaticServer({ root: path.join(projectRoot, "public"), port, host: "127.0.0.1" });
  console.log(`\nProduction build at ${site.url.replace("127.0.0.1", "localhost")} (form → ${supabaseUrl}). Ctrl-C to stop.`);

  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  await site.close();
  if (backend) await backend.close();
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
