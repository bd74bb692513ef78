import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { LOCAL_ANON_KEY } from "../../build-time/local-backend-defaults";
import { runWithLog } from "./logged-run";

export const PROJECT_ROOT = path.resolve(__dirname, "..", "..");
export const PUBLIC_DIR = path.join(PROJECT_ROOT, "public");
export const REPORTS_DIR = path.join(PROJECT_ROOT, "reports");
/** What the last test build baked in, so `--reuse-build` can find the backend port again. */
export const BUILD_INFO_FILE = path.join(REPORTS_DIR, "e2e-build.json");
export const BUILD_LOG_FILE = path.join(REPORTS_DIR, "e2e-build.log");

export type BuildInfo = {
  /** The Supabase URL baked into the page: the local backend's address for this run. */
  backendUrl: string;
  backendPort: number;
  anonKey: string;
  builtAt: string;
  buildSeconds: number;
  /** mtime of public/index.html right after the build: a later build makes this info stale. */
  indexMtimeMs: number;
};

/** A TCP port that was free a moment ago on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address
          ? resolve(address.port)
          : reject(new Error("no port")),
      );
    });
  });
}

/**
 * Runs a production build (`command` in `cwd`) with the form pointed at `backendUrl`, the local
 * backend the tests start. The process environment wins over any .env file, so a developer's
 * .env.production is not used. The full output goes to `logFile`; on failure the error names
 * `what` and holds the log's tail. Returns the build's duration in seconds.
 */
export async function runTestBuild(
  what: string,
  build: { command: string; args: string[]; cwd: string },
  backendUrl: string,
  logFile: string,
): Promise<number> {
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const started = Date.now();
  const { code, tail } = await runWithLog(
    {
      ...build,
      env: {
        ...process.env,
        NODE_ENV: "production",
        GATSBY_SUPABASE_URL: backendUrl,
        GATSBY_SUPABASE_ANON_KEY: LOCAL_ANON_KEY,
        GATSBY_TELEMETRY_DISABLED: "1",
        CI: process.env.CI ?? "1",
      },
      logFile,
    },
    40,
  );
  const buildSeconds = (Date.now() - started) / 1000;
  if (code !== 0) {
    throw new Error(
      `${what} failed (exit ${code}) after ${buildSeconds.toFixed(0)} s. Last lines of ${path.relative(PROJECT_ROOT, logFile)}:\n${tail}`,
    );
  }
  return buildSeconds;
}

/**
 * `npm run build` (the project's own production build) for the local backend on `backendPort`.
 * The full output goes to reports/e2e-build.log.
 */
export async function buildSiteForTests(backendPort: number): Promise<BuildInfo> {
  const backendUrl = `http://127.0.0.1:${backendPort}`;
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const buildSeconds = await runTestBuild(
    "npm run build",
    { command: npm, args: ["run", "build"], cwd: PROJECT_ROOT },
    backendUrl,
    BUILD_LOG_FILE,
  );
  const info: BuildInfo = {
    backendUrl,
    backendPort,
    anonKey: LOCAL_ANON_KEY,
    builtAt: new Date().toISOString(),
    buildSeconds,
    indexMtimeMs: fs.statSync(path.join(PUBLIC_DIR, "index.html")).mtimeMs,
  };
  fs.writeFileSync(BUILD_INFO_FILE, `${JSON.stringify(info, null, 2)}\n`);
  return info;
}

/** The info of the last test build, if public/ is still that build; otherwise a reason. */
export function reusableBuild(): { ok: true; info: BuildInfo } | { ok: false; reason: string } {
  if (!fs.existsSync(BUILD_INFO_FILE))
    return { ok: false, reason: `${path.relative(PROJECT_ROOT, BUILD_INFO_FILE)} is missing` };
  const info = JSON.parse(fs.readFileSync(BUILD_INFO_FILE, "utf8")) as BuildInfo;
  const index = path.join(PUBLIC_DIR, "index.html");
  if (!fs.existsSync(index)) return { ok: false, reason: "public/index.html is missing" };
  if (fs.statSync(index).mtimeMs !== info.indexMtimeMs) {
    return {
      ok: false,
      reason: "public/ was rebuilt since (not by the e2e runner), so its backend URL is unknown",
    };
  }
  return { ok: true, info };
}

/**
 * The last test build when `reuse` is asked for and public/ is still that build; otherwise a new
 * one (npm run build for a local backend on a free port). `log` gets one line per step.
 */
export async function buildOrReuse(
  reuse: boolean,
  log: (line: string) => void,
): Promise<BuildInfo> {
  if (reuse) {
    const previous = reusableBuild();
    if (previous.ok) {
      log(`reusing the build of ${previous.info.builtAt} (backend ${previous.info.backendUrl})`);
      return previous.info;
    }
    log(`cannot reuse the build (${previous.reason}); building`);
  }
  const port = await freePort();
  log(
    `building the site for a local backend on port ${port} (npm run build, log in ${path.relative(PROJECT_ROOT, BUILD_LOG_FILE)})…`,
  );
  const info = await buildSiteForTests(port);
  log(`built in ${info.buildSeconds.toFixed(0)} s`);
  return info;
}
