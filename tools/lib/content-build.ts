/**
 * A real `gatsby build` of a temporary copy of this project whose content/ is the given folder (the
 * files a CMS wrote), sharing node_modules and leaving the project's public/ and .cache/ alone.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { localBackendBuildEnv, PROJECT_ROOT, REPORTS_DIR, runBuild } from "./test-build";

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

/**
 * `gatsby build` of this project with `contentDir` as its content/ and the form pointed at
 * `backendUrl`; its output in reports/content-build.log. Local environment files, which can hold a
 * developer's keys, are not copied. `remove()` deletes the copy, its public/ included.
 */
export async function buildWithContent(contentDir: string, backendUrl: string) {
  const siteDir = fs.mkdtempSync(path.join(os.tmpdir(), "content-build-"));
  const remove = () => fs.rmSync(siteDir, { recursive: true, force: true });
  try {
    for (const entry of fs.readdirSync(PROJECT_ROOT))
      if (!LEFT_OUT.has(entry) && !(entry.startsWith(".env") && entry !== ".env.example"))
        fs.cpSync(path.join(PROJECT_ROOT, entry), path.join(siteDir, entry), { recursive: true });
    fs.cpSync(contentDir, path.join(siteDir, "content"), { recursive: true });
    const buildSeconds = await runBuild(
      "gatsby build of the edited content",
      siteDir,
      localBackendBuildEnv(backendUrl),
      path.join(REPORTS_DIR, "content-build.log"),
    );
    return { publicDir: path.join(siteDir, "public"), buildSeconds, remove };
  } catch (error) {
    remove();
    throw error;
  }
}
