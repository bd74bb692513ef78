/**
 * A bare Gatsby 5 page (one heading and a paragraph, nothing else), built from this project's own
 * node_modules in a temporary folder: the framework's own cost, measured with the same code as
 * our site (`npm run size`, `npm run audit`, the start-up benchmark), so that "the page costs no
 * more than an empty Gatsby page" is a comparison of like with like.
 *
 * The built public/ is kept in reports/bare-gatsby/, labelled with the versions it was built from
 * (gatsby, react and react-dom, and the page source below): a later call reuses it while they match.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { runWithLog } from "./logged-run";
import { PROJECT_ROOT, REPORTS_DIR } from "./test-build";

export const BARE_GATSBY_DIR = path.join(REPORTS_DIR, "bare-gatsby");
const BARE_PUBLIC_DIR = path.join(BARE_GATSBY_DIR, "public");
const KEY_FILE = path.join(BARE_GATSBY_DIR, "build-key.json");
const BUILD_LOG_FILE = path.join(REPORTS_DIR, "bare-gatsby-build.log");

function installedVersion(name: string): string {
  const manifest = JSON.parse(
    fs.readFileSync(path.join(PROJECT_ROOT, "node_modules", name, "package.json"), "utf8"),
  ) as { version: string };
  return manifest.version;
}

/** The whole site: the page Gatsby's minimal TypeScript starter would have, minus its links. */
const SITE_FILES: Record<string, string> = {
  "package.json": `${JSON.stringify(
    {
      name: "bare-gatsby-page",
      version: "1.0.0",
      private: true,
      dependencies: {
        gatsby: installedVersion("gatsby"),
        react: installedVersion("react"),
        "react-dom": installedVersion("react-dom"),
      },
    },
    null,
    2,
  )}\n`,
  "gatsby-config.js": "module.exports = {};\n",
  "src/pages/index.tsx": [
    'import * as React from "react";',
    'import type { HeadFC } from "gatsby";',
    "",
    "export default function IndexPage() {",
    "  return (",
    "    <main>",
    "      <h1>A bare Gatsby page</h1>",
    "      <p>One heading and one paragraph: what every Gatsby site pays before its own code.</p>",
    "    </main>",
    "  );",
    "}",
    "",
    "export const Head: HeadFC = () => <title>Bare Gatsby page</title>;",
    "",
  ].join("\n"),
};

export type BareGatsbyBuild = { publicDir: string; reused: boolean; buildSeconds: number };

/** The page's files name the installed versions, so they are the whole key of a build. */
function buildKey(): string {
  return JSON.stringify(SITE_FILES);
}

/**
 * The bare page's public/, built now unless a build from the same versions is already there
 * (`rebuild: true` builds anyway). Throws with the build log's tail when Gatsby fails.
 */
export async function bareGatsbyBuild(
  options: { rebuild?: boolean } = {},
): Promise<BareGatsbyBuild> {
  const key = buildKey();
  const previousKey = fs.existsSync(KEY_FILE) ? fs.readFileSync(KEY_FILE, "utf8") : "";
  if (
    !options.rebuild &&
    previousKey === key &&
    fs.existsSync(path.join(BARE_PUBLIC_DIR, "index.html"))
  ) {
    return { publicDir: BARE_PUBLIC_DIR, reused: true, buildSeconds: 0 };
  }

  const siteDir = fs.mkdtempSync(path.join(os.tmpdir(), "bare-gatsby-"));
  const started = Date.now();
  try {
    for (const [name, text] of Object.entries(SITE_FILES)) {
      fs.mkdirSync(path.dirname(path.join(siteDir, name)), { recursive: true });
      fs.writeFileSync(path.join(siteDir, name), text);
    }
    fs.symlinkSync(
      path.join(PROJECT_ROOT, "node_modules"),
      path.join(siteDir, "node_modules"),
      "dir",
    );
    await runGatsbyBuild(siteDir);
    fs.rmSync(BARE_GATSBY_DIR, { recursive: true, force: true });
    fs.mkdirSync(BARE_GATSBY_DIR, { recursive: true });
    fs.cpSync(path.join(siteDir, "public"), BARE_PUBLIC_DIR, { recursive: true });
    fs.writeFileSync(KEY_FILE, key);
  } finally {
    fs.rmSync(siteDir, { recursive: true, force: true });
  }
  return { publicDir: BARE_PUBLIC_DIR, reused: false, buildSeconds: (Date.now() - started) / 1000 };
}

async function runGatsbyBuild(siteDir: string): Promise<void> {
  fs.mkdirSync(REPORTS_DIR, { recursive: true });
  const gatsby = path.join(PROJECT_ROOT, "node_modules", "gatsby", "cli.js");
  const { code, tail } = await runWithLog(
    {
      command: process.execPath,
      args: [gatsby, "build"],
      cwd: siteDir,
      env: {
        ...process.env,
        NODE_ENV: "production",
        GATSBY_TELEMETRY_DISABLED: "1",
        CI: process.env.CI ?? "1",
      },
      logFile: BUILD_LOG_FILE,
    },
    30,
  );
  if (code !== 0) {
    throw new Error(
      `The bare Gatsby page did not build (exit ${code}). Last lines of ${path.relative(PROJECT_ROOT, BUILD_LOG_FILE)}:\n${tail}`,
    );
  }
}
