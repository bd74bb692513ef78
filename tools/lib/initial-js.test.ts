import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { measureInitialJavaScript } from "./initial-js";

function writeBuild(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "initial-js-"));
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), content);
  }
  return dir;
}

describe("measureInitialJavaScript", () => {
  const runtime = "var runtime = 1;".repeat(50);
  const page = "function Page(){return 'landing'}".repeat(30);
  const lazySupabase = "class PostgrestQueryBuilder {} // @supabase/postgrest-js";
  const build = writeBuild({
    "index.html": [
      "<html><head>",
      '<script type="application/ld+json">{"@type":"Organization"}</script>',
      "</head><body>",
      "<script>window.pagePath=\"/\";</script>",
      '<script src="/webpack-runtime-1.js" async></script>',
      "</body></html>",
    ].join(""),
    "webpack-runtime-1.js": runtime,
    "component---src-pages-index-tsx-1.js": page,
    "supabase-chunk.js": lazySupabase,
    "webpack.stats.json": JSON.stringify({
      namedChunkGroups: {
        app: { assets: [{ name: "webpack-runtime-1.js" }] },
        "component---src-pages-index-tsx": { assets: [{ name: "styles.css" }, { name: "component---src-pages-index-tsx-1.js" }] },
      },
    }),
    "page-data/index/page-data.json": JSON.stringify({ componentChunkName: "component---src-pages-index-tsx" }),
  });

  it("counts inline scripts, script tags and the page's chunk group once each, gzip-compressed", () => {
    const report = measureInitialJavaScript(build, "/");
    expect(report.scripts.map((script) => script.name)).toEqual([
      "inline script 1",
      "webpack-runtime-1.js",
      "component---src-pages-index-tsx-1.js",
    ]);
    const expectedGzip = [`window.pagePath="/";`, runtime, page].reduce((sum, text) => sum + zlib.gzipSync(text, { level: 9 }).length, 0);
    expect(report.totalGzipBytes).toBe(expectedGzip);
    expect(report.scriptsWithSupabase).toEqual([]);
  });

  it("notices supabase-js in an initial script", () => {
    fs.writeFileSync(path.join(build, "component---src-pages-index-tsx-1.js"), page + lazySupabase);
    expect(measureInitialJavaScript(build, "/").scriptsWithSupabase).toEqual(["component---src-pages-index-tsx-1.js"]);
  });
});
