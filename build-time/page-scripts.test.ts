import fs from "node:fs";
import path from "node:path";
import { contactsWarmUpRequest } from "../src/lib/contacts-warm-up";
import {
  LOADER_FALLBACK_MS,
  loaderScript,
  pageBootScripts,
  PageScriptsError,
  scriptsStartedBy,
  startPageBootInDirectory,
  startPageBootInstead,
} from "./page-scripts";
import { builtSite } from "./built-site.test-support";

const PAGE_BOOT = ["/webpack-runtime-1.js", "/page-boot-4.js"];
const FORM = ["/framework-2.js", "/meeting-form-5.js"];
const SUBMIT_PATH = ["/submit-path-6.js"];
const LOADS = { scripts: PAGE_BOOT, later: FORM };
const SUPABASE = { url: "https://abc.supabase.co", anonKey: "anon" };
const NEAR_FORM = { request: contactsWarmUpRequest(SUPABASE), preload: SUBMIT_PATH };
const names = (...files: string[]) => ({ assets: files.map((name) => ({ name })) });
const stats = {
  namedChunkGroups: {
    app: names("webpack-runtime-1.js", "styles.9.css", "framework-2.js", "app-3.js"),
    "page-boot": names("webpack-runtime-1.js", "styles.9.css", "page-boot-4.js"),
    "meeting-form": names("styles.9.css", "framework-2.js", "meeting-form-5.js"),
    "submit-path": names("submit-path-6.js"),
  },
};

// The end of a page as Gatsby 5 writes it.
const gatsbyTail =
  '<script id="gatsby-script-loader">/*<![CDATA[*/window.pagePath="/";/*]]>*/</script><!-- slice-start id="_gatsby-scripts-1" -->' +
  '<script id="gatsby-chunk-mapping">/*<![CDATA[*/window.___chunkMapping="{}";/*]]>*/</script>' +
  '<script>window.___webpackCompilationHash="7421e1a03083fef4b327";</script>' +
  '<script src="/webpack-runtime-1.js" async></script><script src="/framework-2.js" async></script><script src="/app-3.js" async></script>' +
  '<!-- slice-end id="_gatsby-scripts-1" --></body></html>';
const formData = '<script type="application/json" id="meeting-form-content">{"b":2}</script>';
const page = `<!DOCTYPE html><html><head><script type="application/ld+json">{"a":1}</script></head><body><div id="___gatsby">${formData}</div>${gatsbyTail}`;
const pageWithoutForm = page.replace(formData, "");

const publicDirWith = (pages: Record<string, string>) =>
  builtSite({ "webpack.stats.json": JSON.stringify(stats), ...pages });
const read = (dir: string, file: string) => fs.readFileSync(path.join(dir, file), "utf8");

describe("startPageBootInstead", () => {
  const result = startPageBootInstead(page, LOADS);

  it("takes out every script of Gatsby's runtime, inline ones included", () => {
    expect(result.removed).toEqual([
      "#gatsby-script-loader",
      "#gatsby-chunk-mapping",
      'window.___webpackCompilationHash="7421e1a03083fef4b327";',
      "/webpack-runtime-1.js",
      "/framework-2.js",
      "/app-3.js",
    ]);
    expect(result.html).not.toMatch(
      /<script src=|pagePath|___chunkMapping|___webpackCompilationHash/,
    );
  });

  it("puts one loader of the page-boot scripts where the first chunk tag was, and leaves the data blocks alone", () => {
    expect(result.html).toContain(
      `<!-- slice-start id="_gatsby-scripts-1" --><script id="page-scripts">${loaderScript(PAGE_BOOT, FORM)}</script><!-- slice-end`,
    );
    expect(result.html).toContain('<script type="application/ld+json">{"a":1}</script>');
    expect(result.html).toContain(formData);
    expect(scriptsStartedBy(result.html)).toEqual(PAGE_BOOT);
    expect(scriptsStartedBy(page)).toEqual([]);
  });

  // Tags read as a parser reads them: attributes in any order, comments, scripts it does not know.
  it.each([
    ['<script src="/x.js"></script><script>var x=1</script>', [], ['<script src="/x.js">']],
    ['<script async="" src="/app-3.js"></script>', ["/app-3.js"], []],
    [
      '<!-- <script src="/old.js" async></script> --><script src="/app.js" async></script>',
      ["/app.js"],
      [],
    ],
    ['<script>window.___webpackCompilationHash="x"; track();</script>', [], []],
  ])("in %s removes %j and does not recognise %j", (body, removed, unrecognised) => {
    const html = `<html><body>${body}</body></html>`;
    const rewrite = startPageBootInstead(html, LOADS);
    expect(rewrite).toMatchObject({ removed, unrecognised });
    if (removed.length === 0) expect(rewrite.html).toBe(html);
  });
});

describe("pageBootScripts", () => {
  it("lists the entry's scripts from webpack's stats, runtime first, the form's to prefetch and the submit path, without stylesheets", () => {
    expect(pageBootScripts(stats)).toEqual({ ...LOADS, submitPath: SUBMIT_PATH });
  });

  it.each([
    ["page-boot", /no "page-boot" chunk group: gatsby-node\.ts/],
    ["meeting-form", /no "meeting-form" chunk group: src\/lib\/toasts\.ts/],
    ["submit-path", /no "submit-path" chunk group: src\/lib\/meeting-request\.ts/],
  ])("says where the %s group comes from when a build lacks it", (group, message) => {
    const { [group as "app"]: _missing, ...others } = stats.namedChunkGroups;
    expect(() => pageBootScripts({ namedChunkGroups: others })).toThrow(message);
  });
});

/** Runs a loader against stand-ins for the DOM, Paint Timing, IntersectionObserver and timers. */
function runLoader(script: string, { paintTiming = true, withSection = true } = {}) {
  const appended: unknown[] = [];
  const links: unknown[] = [];
  const fetched: unknown[][] = [];
  const attributes: Record<string, string> = {};
  const paints: Array<{ callback: () => void; options: unknown }> = [];
  const timers: Array<{ run: () => void; ms: number }> = [];
  const near = { margin: "", disconnected: false, report: (_entries: object[]) => {} };
  const section = { setAttribute: (name: string, value: string) => (attributes[name] = value) };
  const globals = {
    document: {
      createElement: (tag: string) => (tag === "script" ? { src: "", async: false } : {}),
      body: { appendChild: (element: unknown) => appended.push(element) },
      head: { appendChild: (element: unknown) => links.push(element) },
      getElementById: (id: string) => (withSection && id === "contact-form" ? section : null),
    },
    PerformanceObserver: class {
      constructor(private readonly callback: () => void) {}
      observe(options: unknown) {
        if (!paintTiming) throw new TypeError("no paint entries here");
        paints.push({ callback: this.callback, options });
      }
    },
    IntersectionObserver: class {
      constructor(report: (entries: object[]) => void, options: { rootMargin: string }) {
        Object.assign(near, { report, margin: options.rootMargin });
      }
      observe() {}
      disconnect() {
        near.disconnected = true;
      }
    },
    setTimeout: (callback: () => void, ms: number) => timers.push({ run: callback, ms }),
    performance: { now: () => 1234.5 },
    fetch: (...args: unknown[]) => {
      fetched.push(args);
      return Promise.reject(new Error("offline")); // a failed warm-up is swallowed
    },
  };
  new Function(...Object.keys(globals), script)(...Object.values(globals));
  const fallback = () => timers.find((timer) => timer.ms === LOADER_FALLBACK_MS)!.run();
  const nearForm = (isIntersecting: boolean) => near.report([{ isIntersecting }]);
  return { appended, links, fetched, attributes, paints, fallback, near, nearForm };
}

describe("loaderScript", () => {
  const script = (src: string) => ({ src, async: true, fetchPriority: "high" });

  it("adds nothing before the first paint is reported, then every script once, in order, async, and prefetches the later ones", () => {
    const { appended, links, paints, fallback } = runLoader(
      loaderScript(["/a.js", "/b.js"], ["/c.js"]),
    );
    expect([appended, links]).toEqual([[], []]);
    expect(paints.map((paint) => paint.options)).toEqual([{ type: "paint", buffered: true }]);
    paints[0]!.callback(); // first-paint
    expect(appended).toEqual([script("/a.js"), script("/b.js")]);
    expect(links).toEqual([{ rel: "prefetch", as: "script", href: "/c.js" }]);
    paints[0]!.callback(); // first-contentful-paint
    fallback();
    expect([appended.length, links.length]).toEqual([2, 1]);
  });

  it.each([true, false])(
    "still loads them after a while when no paint is reported (Paint Timing: %s)",
    (paintTiming) => {
      const { appended, fallback } = runLoader(loaderScript(["/a.js"]), { paintTiming });
      expect(appended).toEqual([]);
      fallback();
      expect(appended).toEqual([script("/a.js")]);
    },
  );

  it("near the form: does nothing until its section comes near, then preconnects, preloads the submit path, marks the time and sends the warm-up once", () => {
    const { links, attributes, fetched, near, nearForm } = runLoader(
      loaderScript(PAGE_BOOT, FORM, NEAR_FORM),
    );
    expect(near.margin).toBe("50% 0px");
    nearForm(false);
    expect([fetched, links]).toEqual([[], []]);
    nearForm(true);
    expect(links).toEqual([
      { rel: "preconnect", href: "https://abc.supabase.co", crossOrigin: "anonymous" },
      { rel: "preload", as: "script", href: "/submit-path-6.js" },
    ]);
    expect(attributes).toEqual({ "data-warmed-up": "1234.5" });
    expect(fetched).toEqual([JSON.parse(JSON.stringify(NEAR_FORM.request))]);
    expect(near.disconnected).toBe(true);
  });

  it("near the form: needs the section, so a page without the form warms nothing", () => {
    const { fetched, nearForm } = runLoader(loaderScript(PAGE_BOOT, FORM, NEAR_FORM), {
      withSection: false,
    });
    nearForm(true);
    expect(fetched).toEqual([]);
  });
});

describe("startPageBootInDirectory", () => {
  it("rewrites every page and counts it, and leaves it as it is when run again; only a page with the form prefetches its scripts and, with Supabase settings, warms the way", async () => {
    const dir = publicDirWith({ "index.html": page, "404.html": pageWithoutForm });
    await expect(startPageBootInDirectory(dir)).resolves.toBe(2);
    expect(read(dir, "index.html")).toContain(loaderScript(PAGE_BOOT, FORM));
    expect(read(dir, "404.html")).toContain(loaderScript(PAGE_BOOT, []));
    const once = read(dir, "index.html");
    await expect(startPageBootInDirectory(dir)).resolves.toBe(2);
    expect(read(dir, "index.html")).toBe(once);

    const warm = publicDirWith({ "index.html": page, "404.html": pageWithoutForm });
    await startPageBootInDirectory(warm, SUPABASE);
    expect(read(warm, "index.html")).toContain(loaderScript(PAGE_BOOT, FORM, NEAR_FORM));
    expect(read(warm, "404.html")).toContain(loaderScript(PAGE_BOOT, []));
  });

  it("stops the build when Gatsby's tags change so that a page would still load a script while parsing", async () => {
    const changed = page.replace('src="/app-3.js" async>', 'src="/app-3.js" defer>');
    const dir = publicDirWith({ "index.html": changed });
    await expect(startPageBootInDirectory(dir)).rejects.toThrow(PageScriptsError);
    await expect(startPageBootInDirectory(dir)).rejects.toThrow(
      /index\.html: <script src="\/app-3\.js" defer>/,
    );
  });

  it("leaves HTML that is not a Gatsby page alone (the content editor at /admin/)", async () => {
    const editor =
      '<!doctype html><html><body><script src="/admin/sveltia-cms-1.0.0.js"></script></body></html>';
    const dir = publicDirWith({ "index.html": page, "admin.html": editor });
    await expect(startPageBootInDirectory(dir)).resolves.toBe(1);
    expect(read(dir, "admin.html")).toBe(editor);
  });

  it("stops the build when no page has Gatsby's scripts to replace", async () => {
    const dir = publicDirWith({ "index.html": "<html><body><p>no scripts</p></body></html>" });
    await expect(startPageBootInDirectory(dir)).rejects.toThrow(
      /No page .* has Gatsby's script tags/,
    );
  });
});
