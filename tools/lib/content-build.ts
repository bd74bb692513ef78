/**
 * A real `gatsby build` of a temporary copy of this project whose content/ is the given folder (the
 * files a CMS wrote), sharing node_modules and leaving the project's public/ and .cache/ alone,
 * served as a static host serves it.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { startStaticServer } from "./static-server";
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
 * `backendUrl` (output in reports/content-build.log; its time printed), then `visit` with the
 * built site served. Local environment files, which can hold a developer's keys, are not copied.
 * The copy, its public/ included, is deleted afterwards.
 */
export async function visitContentBuild(
  contentDir: string,
  backendUrl: string,
  visit: (siteUrl: string, publicDir: string) => Promise<void>,
): Promise<void> {
  const siteDir = fs.mkdtempSync(path.join(os.tmpdir(), "content-build-"));
  try {
    for (const entry of fs.readdirSync(PROJECT_ROOT))
      if (!LEFT_OUT.has(entry) && !(entry.startsWith(".env") && entry !== ".env.example"))
        fs.cpSync(path.join(PROJECT_ROOT, entry), path.join(siteDir, entry), { recursive: true });
    fs.cpSync(contentDir, path.join(siteDir, "content"), { recursive: true });
    const what = `gatsby build of ${contentDir}`;
    const seconds = await runBuild(
      what,
      siteDir,
      localBackendBuildEnv(backendUrl),
      path.join(REPORTS_DIR, "content-build.log"),
    );
    console.log(`${what} took ${seconds.toFixed(0)} s`);
    const publicDir = path.join(siteDir, "public");
    const server = await startStaticServer({ root: publicDir });
    try {
      await visit(server.url, publicDir);
    } finally {
      await server.close();
    }
  } finally {
    fs.rmSync(siteDir, { recursive: true, force: true });
  }
}
