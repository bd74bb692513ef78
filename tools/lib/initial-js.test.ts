import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { loaderScript } from "../../build-time/page-scripts";
import { measureChunkGroup, measureInitialJavaScript } from "./initial-js";

function writeBuild(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "initial-js-"));
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), content);
  }
  return dir;
}

const gzip = (texts: string[]) =>
  texts.reduce((sum, text) => sum + zlib.gzipSync(text, { level: 9 }).length, 0);
const runtime = "var runtime = 1;".repeat(50);
const app = "function App(){return 'router'}".repeat(40);
const page = "function Page(){return 'landing'}".repeat(30);
const boot = "function boot(){return 'form island'}".repeat(10);
const lazySupabase = "class PostgrestQueryBuilder {} // @supabase/postgrest-js";
const stats = JSON.stringify({
  namedChunkGroups: {
    app: { assets: [{ name: "webpack-runtime-1.js" }, { name: "app-2.js" }] },
    "page-boot": { assets: [{ name: "webpack-runtime-1.js" }, { name: "page-boot-4.js" }] },
    "component---src-pages-index-tsx": {
      assets: [{ name: "styles.css" }, { name: "component---src-pages-index-tsx-3.js" }],
    },
  },
});
const chunks = {
  "webpack-runtime-1.js": runtime,
  "app-2.js": app,
  "component---src-pages-index-tsx-3.js": page,
  "page-boot-4.js": boot,
  "supabase-chunk.js": lazySupabase,
  "webpack.stats.json": stats,
  "page-data/index/page-data.json": JSON.stringify({
    componentChunkName: "component---src-pages-index-tsx",
  }),
};
const jsonLd = '<script type="application/ld+json">{"@type":"Organization"}</script>';

describe("measureInitialJavaScript", () => {
  it("on a page that starts Gatsby's runtime, counts inline scripts, script tags and the page's chunk group once each, gzip-compressed, and notices supabase-js in one", () => {
    const build = writeBuild({
      ...chunks,
      "component---src-pages-index-tsx-3.js": page + lazySupabase,
      "index.html": `<html><head>${jsonLd}</head><body><script>window.pagePath="/";</script><script src="/webpack-runtime-1.js" async></script><script src="/app-2.js" async></script></body></html>`,
    });
    const report = measureInitialJavaScript(build, "/");
    expect(report.scripts.map((script) => script.name)).toEqual([
      "inline script 1",
      "webpack-runtime-1.js",
      "app-2.js",
      "component---src-pages-index-tsx-3.js",
    ]);
    expect(report.totalGzipBytes).toBe(
      gzip([`window.pagePath="/";`, runtime, app, page + lazySupabase]),
    );
    expect(report.scriptsWithSupabase).toEqual(["component---src-pages-index-tsx-3.js"]);
  });

  it("on a page that starts its own script after the first paint, counts the loader and what it starts, not Gatsby's page chunk", () => {
    const loader = loaderScript(["/webpack-runtime-1.js", "/page-boot-4.js"]);
    const build = writeBuild({
      ...chunks,
      "index.html": `<html><head>${jsonLd}</head><body><script id="page-scripts">${loader}</script></body></html>`,
    });
    const report = measureInitialJavaScript(build, "/");
    expect(report.scripts.map((script) => script.name)).toEqual([
      "inline script 1",
      "webpack-runtime-1.js",
      "page-boot-4.js",
    ]);
    expect(report.totalGzipBytes).toBe(gzip([loader, runtime, boot]));
    expect(report.scriptsWithSupabase).toEqual([]);
  });

  it("measures a chunk group loaded later on its own (the form's), and nothing for a group the build lacks", () => {
    const build = writeBuild(chunks);
    expect(measureChunkGroup(build, "page-boot")).toEqual({
      scripts: [
        { name: "webpack-runtime-1.js", bytes: runtime.length, gzipBytes: gzip([runtime]) },
        { name: "page-boot-4.js", bytes: boot.length, gzipBytes: gzip([boot]) },
      ],
      totalGzipBytes: gzip([runtime, boot]),
    });
    expect(measureChunkGroup(build, "meeting-form")).toBeUndefined();
  });
});
