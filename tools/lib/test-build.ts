/**
 * The production build the e2e tests, the audit, the screenshots and bench:flood use: `npm run
 * build` with the form pointed at a local backend on a free port, its settings kept in
 * reports/e2e-build.json so `--reuse-build` can find that backend again while public/ is that build.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";

import { LOCAL_ANON_KEY } from "../../build-time/local-backend-defaults";
import { findUnfilledPlaceholder } from "../../build-time/security-headers";

export const PROJECT_ROOT = path.resolve(__dirname, "..", "..");
export const PUBLIC_DIR = path.join(PROJECT_ROOT, "public");
export const REPORTS_DIR = path.join(PROJECT_ROOT, "reports");
const BUILD_INFO_FILE = path.join(REPORTS_DIR, "e2e-build.json");
const BUILD_LOG_FILE = path.join(REPORTS_DIR, "e2e-build.log");

export type BuildInfo = {
  /** The Supabase URL baked into the page: the local backend's address for this run. */
  backendUrl: string;
  backendPort: number;
  builtAt: string;
  buildSeconds: number;
  /** mtime of public/index.html right after the build: a later build makes this info stale. */
  indexMtimeMs: number;
};

/** A TCP port that was free a moment ago on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * `gatsby build` in `siteDir` (this project, or a copy that then gets its node_modules), its output
 * in `logFile`; its seconds, or an error with the log's tail.
 */
export async function runBuild(
  what: string,
  siteDir: string,
  env: NodeJS.ProcessEnv,
  logFile: string,
): Promise<number> {
  if (siteDir !== PROJECT_ROOT)
    fs.symlinkSync(path.join(PROJECT_ROOT, "node_modules"), path.join(siteDir, "node_modules"));
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const started = Date.now();
  const log = fs.createWriteStream(logFile);
  const code = await new Promise<number>((resolve, reject) => {
    const child = spawn(process.execPath, [require.resolve("gatsby/cli.js"), "build"], {
      cwd: siteDir,
      env: {
        ...process.env,
        NODE_ENV: "production",
        GATSBY_TELEMETRY_DISABLED: "1",
        CI: process.env.CI ?? "1",
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    child.once("error", reject);
    child.once("close", (status) => resolve(status ?? 1));
  });
  await new Promise<void>((resolve) => log.end(resolve));
  const seconds = (Date.now() - started) / 1000;
  if (code !== 0) {
    const tail = fs.readFileSync(logFile, "utf8").trimEnd().split("\n").slice(-40).join("\n");
    throw new Error(
      `${what} failed (exit ${code}) after ${seconds.toFixed(0)} s. Last lines of ${path.relative(PROJECT_ROOT, logFile)}:\n${tail}`,
    );
  }
  return seconds;
}

/** The build environment of a site whose form talks to the local backend at `backendUrl`. */
export function localBackendBuildEnv(backendUrl: string): NodeJS.ProcessEnv {
  // The process environment wins over any .env file, so a developer's .env.production is not used.
  return { GATSBY_SUPABASE_URL: backendUrl, GATSBY_SUPABASE_ANON_KEY: LOCAL_ANON_KEY };
}

/** `npm run build` for the local backend on `backendPort`; output in reports/e2e-build.log. */
export async function buildSiteForTests(backendPort: number): Promise<BuildInfo> {
  const backendUrl = `http://127.0.0.1:${backendPort}`;
  const buildSeconds = await runBuild(
    "npm run build",
    PROJECT_ROOT,
    localBackendBuildEnv(backendUrl),
    BUILD_LOG_FILE,
  );
  const info: BuildInfo = {
    backendUrl,
    backendPort,
    builtAt: new Date().toISOString(),
    buildSeconds,
    indexMtimeMs: fs.statSync(path.join(PUBLIC_DIR, "index.html")).mtimeMs,
  };
  fs.writeFileSync(BUILD_INFO_FILE, `${JSON.stringify(info, null, 2)}\n`);
  return info;
}

/** The info of the last test build, if public/ is still that build; otherwise why not. */
function reusableBuild(): BuildInfo | string {
  if (!fs.existsSync(BUILD_INFO_FILE))
    return `${path.relative(PROJECT_ROOT, BUILD_INFO_FILE)} is missing`;
  const info = JSON.parse(fs.readFileSync(BUILD_INFO_FILE, "utf8")) as BuildInfo;
  const index = path.join(PUBLIC_DIR, "index.html");
  if (!fs.existsSync(index)) return "public/index.html is missing";
  if (fs.statSync(index).mtimeMs !== info.indexMtimeMs)
    return "public/ was rebuilt since (not by the e2e runner), so its backend URL is unknown";
  const headers = path.join(PUBLIC_DIR, "_headers");
  if (!fs.existsSync(headers) || findUnfilledPlaceholder(fs.readFileSync(headers, "utf8")))
    return "public/_headers was last written by gatsby develop";
  return info;
}

/** The last test build when `reuse` is asked for and public/ is still it; otherwise a new one. */
export async function buildOrReuse(
  reuse: boolean,
  log: (line: string) => void,
): Promise<BuildInfo> {
  const previous = reuse ? reusableBuild() : undefined;
  if (typeof previous === "object") {
    log(`reusing the build of ${previous.builtAt} (backend ${previous.backendUrl})`);
    return previous;
  }
  if (previous) log(`cannot reuse the build (${previous}); building`);
  const port = await freePort();
  log(
    `building the site for a local backend on port ${port} (npm run build, log in ${path.relative(PROJECT_ROOT, BUILD_LOG_FILE)})…`,
  );
  const info = await buildSiteForTests(port);
  log(`built in ${info.buildSeconds.toFixed(0)} s`);
  return info;
}
