import fs from "node:fs";
import path from "node:path";
import { builtSite } from "./built-site.test-support";
import { finishBuild, SecretsInBuildError } from "./finish-build";
import { loaderScript } from "./page-scripts";
import { cspHash } from "./html";

const page =
  '<!DOCTYPE html><html lang="en"><head><title>t</title></head><body><div id="___gatsby"></div>' +
  '<script src="/webpack-runtime-1.js" async></script><script src="/app-2.js" async></script></body></html>';

const stats = JSON.stringify({
  namedChunkGroups: {
    "page-boot": { assets: ["webpack-runtime-1.js", "page-boot-3.js"] },
    "meeting-form": { assets: ["meeting-form-4.js"] },
    "submit-path": { assets: ["submit-path-5.js"] },
  },
});
const makeProject = (files: Record<string, string>) =>
  builtSite({ "webpack.stats.json": stats, ...files });

describe("finishBuild", () => {
  it("puts the page's own start-up script in first, so that the CSP allows its loader by hash, then writes _headers", async () => {
    const publicDir = makeProject({
      "index.html": page,
      "app-2.js": "1",
      "webpack-runtime-1.js": "1",
      "page-boot-3.js": "1",
    });
    const lines: string[] = [];
    await finishBuild({
      publicDir,
      supabaseUrl: "https://abc.supabase.co",
      log: (line) => lines.push(line),
    });
    const headers = fs.readFileSync(path.join(publicDir, "_headers"), "utf8");
    expect(headers).toContain(cspHash(loaderScript(["/webpack-runtime-1.js", "/page-boot-3.js"])));
    expect(lines).toHaveLength(3);
  });

  // A page-scripts refusal stops it the same way: page-scripts.test.ts, startPageBootInDirectory.
  it("stops when a file to publish holds a secret key", async () => {
    const files = {
      "index.html": page,
      "app-2.js": 'var k="sb_secret_0123456789abcdefghijklmnop"',
    };
    const log = () => undefined;
    await expect(
      finishBuild({ publicDir: makeProject(files), supabaseUrl: "https://abc.supabase.co", log }),
    ).rejects.toThrow(SecretsInBuildError);
  });
});
