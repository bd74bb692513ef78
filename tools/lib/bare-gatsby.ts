/**
 * A bare Gatsby 5 page (a heading and a paragraph) built from this project's node_modules: the
 * framework's own cost for `npm run size` and `npm run audit`. Kept in reports/bare-gatsby/ and
 * reused while its files (which name the installed gatsby, react and react-dom) match.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { PROJECT_ROOT, REPORTS_DIR, runBuild } from "./test-build";

const BARE_GATSBY_DIR = path.join(REPORTS_DIR, "bare-gatsby");
const PUBLIC = path.join(BARE_GATSBY_DIR, "public");
const KEY_FILE = path.join(BARE_GATSBY_DIR, "build-key.json");

function installedVersion(name: string): string {
  const manifest = path.join(PROJECT_ROOT, "node_modules", name, "package.json");
  return (JSON.parse(fs.readFileSync(manifest, "utf8")) as { version: string }).version;
}

/** The whole site: the page Gatsby's minimal TypeScript starter would have, minus its links. */
const SITE_FILES: Record<string, string> = {
  "package.json": JSON.stringify({
    name: "bare-gatsby-page",
    private: true,
    dependencies: Object.fromEntries(
      ["gatsby", "react", "react-dom"].map((name) => [name, installedVersion(name)]),
    ),
  }),
  "gatsby-config.js": "module.exports = {};\n",
  "src/pages/index.tsx": `import * as React from "react";
import type { HeadFC } from "gatsby";

export default function IndexPage() {
  return (
    <main>
      <h1>A bare Gatsby page</h1>
      <p>One heading and one paragraph: what every Gatsby site pays before its own code.</p>
    </main>
  );
}

export const Head: HeadFC = () => <title>Bare Gatsby page</title>;
`,
};

/** The bare page's public/, built now unless a build of the same files is there. */
export async function bareGatsbyBuild(): Promise<{
  publicDir: string;
  reused: boolean;
  buildSeconds: number;
}> {
  const key = JSON.stringify(SITE_FILES);
  const built = fs.existsSync(KEY_FILE) && fs.readFileSync(KEY_FILE, "utf8") === key;
  if (built && fs.existsSync(path.join(PUBLIC, "index.html")))
    return { publicDir: PUBLIC, reused: true, buildSeconds: 0 };
  const siteDir = fs.mkdtempSync(path.join(os.tmpdir(), "bare-gatsby-"));
  try {
    for (const [name, text] of Object.entries(SITE_FILES)) {
      fs.mkdirSync(path.dirname(path.join(siteDir, name)), { recursive: true });
      fs.writeFileSync(path.join(siteDir, name), text);
    }
    const buildSeconds = await runBuild(
      "The bare Gatsby page's build",
      siteDir,
      {},
      path.join(REPORTS_DIR, "bare-gatsby-build.log"),
    );
    fs.rmSync(BARE_GATSBY_DIR, { recursive: true, force: true });
    fs.cpSync(path.join(siteDir, "public"), PUBLIC, { recursive: true });
    fs.writeFileSync(KEY_FILE, key);
    return { publicDir: PUBLIC, reused: false, buildSeconds };
  } finally {
    fs.rmSync(siteDir, { recursive: true, force: true });
  }
}
