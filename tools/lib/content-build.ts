/**
 * Builds the site as the host would after a CMS save: a real `gatsby build` of a temporary copy of
 * this project whose content/ is replaced by the given folder (the files a CMS wrote). The copy
 * shares the project's node_modules (a symlink) and leaves the project's own public/ and .cache/
 * alone, so it can run while public/ is being served by the e2e run.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { LOCAL_ANON_KEY } from "../../build-time/local-backend-defaults";
import { runWithLog } from "./logged-run";
import { PROJECT_ROOT, REPORTS_DIR } from "./test-build";

export const CONTENT_BUILD_LOG_FILE = path.join(REPORTS_DIR, "content-build.log");

/** What a fresh clone does not have, or what this build makes itself (content/ comes from the caller). */
const LEFT_OUT = new Set(["node_modules", ".git", ".cache", "public", "reports", "test-results", "screenshots", ".data", "content"]);

/** Local environment files can hold a developer's keys; the build gets its settings explicitly. */
function isCopied(name: string): boolean {
  return !LEFT_OUT.has(name) && !(name.startsWith(".env") && name !== ".env.example");
}

export type ContentBuild = {
  publicDir: string;
  buildSeconds: number;
  /** Deletes the temporary copy (public/ included). */
  remove(): void;
};

/**
 * `gatsby build` of this project with `contentDir` as its content/, the form pointed at
 * `backendUrl`. The whole output goes to reports/content-build.log; on failure its tail is in the error.
 */
export async function buildWithContent(contentDir: string, backendUrl: string): Promise<ContentBuild> {
  const siteDir = fs.mkdtempSync(path.join(os.tmpdir(), "content-build-"));
  const remove = () => fs.rmSync(siteDir, { recursive: true, force: true });
  try {
    for (const entry of fs.readdirSync(PROJECT_ROOT)) {
      if (isCopied(entry)) fs.cpSync(path.join(PROJECT_ROOT, entry), path.join(siteDir, entry), { recursive: true });
    }
    fs.cpSync(contentDir, path.join(siteDir, "content"), { recursive: true });
    fs.symlinkSync(path.join(PROJECT_ROOT, "node_modules"), path.join(siteDir, "node_modules"), "dir");
    fs.mkdirSync(REPORTS_DIR, { recursive: true });
    const started = Date.now();
    const { code, tail } = await runWithLog(
      {
        command: process.execPath,
        args: [path.join(PROJECT_ROOT, "node_modules", "gatsby", "cli.js"), "build"],
        cwd: siteDir,
        env: {
          ...process.env,
          NODE_ENV: "production",
          GATSBY_SUPABASE_URL: backendUrl,
          GATSBY_SUPABASE_ANON_KEY: LOCAL_ANON_KEY,
          GATSBY_TELEMETRY_DISABLED: "1",
          CI: process.env.CI ?? "1",
        },
        logFile: CONTENT_BUILD_LOG_FILE,
      },
      40,
    );
    const buildSeconds = (Date.now() - started) / 1000;
    if (code !== 0) {
      throw new Error(`gatsby build of the edited content failed (exit ${code}) after ${buildSeconds.toFixed(0)} s. Last lines of ${path.relative(PROJECT_ROOT, CONTENT_BUILD_LOG_FILE)}:\n${tail}`);
    }
    return { publicDir: path.join(siteDir, "public"), buildSeconds, remove };
  } catch (error) {
    remove();
    throw error;
  }
}
