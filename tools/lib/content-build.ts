/**
 * Builds the site as the host would after a CMS save: a real `gatsby build` of a temporary copy of
 * this project whose content/ is replaced by the given folder (the files a CMS wrote). The copy
 * shares the project's node_modules (a symlink) and leaves the project's own public/ and .cache/
 * alone, so it can run while public/ is being served by the e2e run.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PROJECT_ROOT, REPORTS_DIR, runTestBuild } from "./test-build";

export const CONTENT_BUILD_LOG_FILE = path.join(REPORTS_DIR, "content-build.log");

/** What a fresh clone does not have, or what this build makes itself (content/ comes from the caller). */
const LEFT_OUT = new Set([
  "node_modules",
  ".git",
  ".cache",
  "public",
  "reports",
  "test-results",
  "screenshots",
  ".data",
  "content",
  ".drawn-pictures",
]);

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
export async function buildWithContent(
  contentDir: string,
  backendUrl: string,
): Promise<ContentBuild> {
  const siteDir = fs.mkdtempSync(path.join(os.tmpdir(), "content-build-"));
  const remove = () => fs.rmSync(siteDir, { recursive: true, force: true });
  try {
    for (const entry of fs.readdirSync(PROJECT_ROOT)) {
      if (isCopied(entry))
        fs.cpSync(path.join(PROJECT_ROOT, entry), path.join(siteDir, entry), { recursive: true });
    }
    fs.cpSync(contentDir, path.join(siteDir, "content"), { recursive: true });
    fs.symlinkSync(
      path.join(PROJECT_ROOT, "node_modules"),
      path.join(siteDir, "node_modules"),
      "dir",
    );
    const buildSeconds = await runTestBuild(
      "gatsby build of the edited content",
      {
        command: process.execPath,
        args: [path.join(PROJECT_ROOT, "node_modules", "gatsby", "cli.js"), "build"],
        cwd: siteDir,
      },
      backendUrl,
      CONTENT_BUILD_LOG_FILE,
    );
    return { publicDir: path.join(siteDir, "public"), buildSeconds, remove };
  } catch (error) {
    remove();
    throw error;
  }
}
