import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DeferScriptsError, deferScriptsInDirectory, deferScriptsUntilFirstPaint, loaderScript } from "./defer-scripts";

const gatsbyTail =
  '<script id="gatsby-script-loader">/*<![CDATA[*/window.pagePath="/";/*]]>*/</script><!-- slice-start id="_gatsby-scripts-1" -->' +
  '<script>window.___webpackCompilationHash="abc";</script>' +
  '<script src="/webpack-runtime-1.js" async></script><script src="/framework-2.js" async></script><script src="/app-3.js" async></script>' +
  '<!-- slice-end id="_gatsby-scripts-1" --></body></html>';
const page = `<!DOCTYPE html><html><head><script type="application/ld+json">{"a":1}</script></head><body><div id="___gatsby"></div>${gatsbyTail}`;

describe("deferScriptsUntilFirstPaint", () => {
  const result = deferScriptsUntilFirstPaint(page);

  it("finds Gatsby's initial scripts in order", () => {
    expect(result.scripts).toEqual(["/webpack-runtime-1.js", "/framework-2.js", "/app-3.js"]);
  });

  it("replaces their tags with one loader where the first one was, leaving every other script alone", () => {
    expect(result.html).not.toMatch(/<script src=/);
    expect(result.html).toContain(
      `<script>window.___webpackCompilationHash="abc";</script><script id="deferred-scripts">${loaderScript(result.scripts)}</script><!-- slice-end`,
    );
    expect(result.html).toContain('<script type="application/ld+json">{"a":1}</script>');
    expect(result.html).toContain('window.pagePath="/"');
  });

  it("is idempotent and leaves pages without async scripts unchanged", () => {
    expect(deferScriptsUntilFirstPaint(result.html)).toEqual({ html: result.html, scripts: [], notDeferred: [] });
    const plain = "<html><body><script>var x=1</script><script src=\"/x.js\"></script></body></html>";
    expect(deferScriptsUntilFirstPaint(plain)).toEqual({ html: plain, scripts: [], notDeferred: ['<script src="/x.js">'] });
  });
});

describe("loaderScript", () => {
  type FakeScript = { src: string; async: boolean };

  function run(scripts: string[]) {
    const appended: FakeScript[] = [];
    const frames: Array<() => void> = [];
    const timers: Array<{ run: () => void; ms: number }> = [];
    const document = { createElement: () => ({ src: "", async: false }), body: { appendChild: (element: FakeScript) => appended.push(element) } };
    const requestAnimationFrame = (callback: () => void) => frames.push(callback);
    const setTimeout = (callback: () => void, ms: number) => timers.push({ run: callback, ms });
    new Function("document", "requestAnimationFrame", "setTimeout", loaderScript(scripts))(document, requestAnimationFrame, setTimeout);
    return { appended, frames, timers };
  }

  it("adds nothing before the first frame, then every script once, in order, async", () => {
    const { appended, frames, timers } = run(["/a.js", "/b.js"]);
    expect(appended).toEqual([]);
    frames.shift()!();
    timers.find((timer) => timer.ms === 0)!.run();
    expect(appended).toEqual([
      { src: "/a.js", async: true },
      { src: "/b.js", async: true },
    ]);
    timers.find((timer) => timer.ms === 200)!.run();
    expect(appended).toHaveLength(2);
  });

  it("still loads them after 200 ms when no frame is painted (a background tab)", () => {
    const { appended, timers } = run(["/a.js"]);
    timers.find((timer) => timer.ms === 200)!.run();
    expect(appended).toEqual([{ src: "/a.js", async: true }]);
  });
});

describe("deferScriptsUntilFirstPaint reads tags as a parser does", () => {
  it("rewrites a chunk tag whose attributes come in another order or with an empty value", () => {
    const result = deferScriptsUntilFirstPaint('<html><body><script async="" src="/app-3.js"></script></body></html>');
    expect(result.scripts).toEqual(["/app-3.js"]);
    expect(result.notDeferred).toEqual([]);
  });

  it("ignores a script tag inside a comment", () => {
    const html = '<html><body><!-- <script src="/old.js" async></script> --><script src="/app.js" async></script></body></html>';
    expect(deferScriptsUntilFirstPaint(html).scripts).toEqual(["/app.js"]);
  });
});

describe("deferScriptsInDirectory", () => {
  function publicDirWith(pages: Record<string, string>): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "defer-scripts-"));
    for (const [file, html] of Object.entries(pages)) fs.writeFileSync(path.join(dir, file), html);
    return dir;
  }

  it("rewrites every page and counts it, also when run again", async () => {
    const dir = publicDirWith({ "index.html": page, "404.html": page });
    await expect(deferScriptsInDirectory(dir)).resolves.toBe(2);
    expect(fs.readFileSync(path.join(dir, "index.html"), "utf8")).toContain('id="deferred-scripts"');
    await expect(deferScriptsInDirectory(dir)).resolves.toBe(2);
  });

  it("stops the build when Gatsby's tags change so that a page would still load a script while parsing", async () => {
    const changed = page.replace('<script src="/app-3.js" async></script>', '<script src="/app-3.js" defer></script>');
    const dir = publicDirWith({ "index.html": changed });
    await expect(deferScriptsInDirectory(dir)).rejects.toThrow(DeferScriptsError);
    await expect(deferScriptsInDirectory(dir)).rejects.toThrow(/index\.html: <script src="\/app-3\.js" defer>/);
  });

  it("leaves HTML that is not a Gatsby page alone (the content editor at /admin/)", async () => {
    const editor = '<!doctype html><html><body><script src="/admin/sveltia-cms-1.0.0.js"></script></body></html>';
    const dir = publicDirWith({ "index.html": page, "admin.html": editor });
    await expect(deferScriptsInDirectory(dir)).resolves.toBe(1);
    expect(fs.readFileSync(path.join(dir, "admin.html"), "utf8")).toBe(editor);
  });

  it("stops the build when no page has script tags to defer", async () => {
    const dir = publicDirWith({ "index.html": "<html><body><p>no scripts</p></body></html>" });
    await expect(deferScriptsInDirectory(dir)).rejects.toThrow(/No page .* has Gatsby's script tags/);
  });
});
