import fs from "node:fs";
import os from "node:os";
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

const PAGE_BOOT = ["/webpack-runtime-1.js", "/page-boot-4.js"];
const FORM = ["/framework-2.js", "/meeting-form-5.js"];
const SUBMIT_PATH = ["/submit-path-6.js"];
const LOADS = { scripts: PAGE_BOOT, later: FORM };
const stats = {
  namedChunkGroups: {
    app: {
      assets: [
        { name: "webpack-runtime-1.js" },
        { name: "styles.9.css" },
        { name: "framework-2.js" },
        { name: "app-3.js" },
      ],
    },
    "page-boot": {
      assets: [
        { name: "webpack-runtime-1.js" },
        { name: "styles.9.css" },
        { name: "page-boot-4.js" },
      ],
    },
    "meeting-form": {
      assets: [{ name: "styles.9.css" }, { name: "framework-2.js" }, { name: "meeting-form-5.js" }],
    },
    "submit-path": { assets: [{ name: "submit-path-6.js" }] },
  },
};

// The end of a page as Gatsby 5 writes it.
const gatsbyTail =
  '<script id="gatsby-script-loader">/*<![CDATA[*/window.pagePath="/";/*]]>*/</script><!-- slice-start id="_gatsby-scripts-1" -->' +
  '<script id="gatsby-chunk-mapping">/*<![CDATA[*/window.___chunkMapping="{}";/*]]>*/</script>' +
  '<script>window.___webpackCompilationHash="7421e1a03083fef4b327";</script>' +
  '<script src="/webpack-runtime-1.js" async></script><script src="/framework-2.js" async></script><script src="/app-3.js" async></script>' +
  '<!-- slice-end id="_gatsby-scripts-1" --></body></html>';
const page = `<!DOCTYPE html><html><head><script type="application/ld+json">{"a":1}</script></head><body><div id="___gatsby"><script type="application/json" id="meeting-form-content">{"b":2}</script></div>${gatsbyTail}`;
const pageWithoutForm = page.replace(
  /<script type="application\/json" id="meeting-form-content">.*?<\/script>/,
  "",
);

/** A build's public/ folder: webpack's stats and these pages. */
function publicDirWith(pages: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "page-scripts-"));
  fs.writeFileSync(path.join(dir, "webpack.stats.json"), JSON.stringify(stats));
  for (const [file, html] of Object.entries(pages)) fs.writeFileSync(path.join(dir, file), html);
  return dir;
}
const read = (dir: string, file: string) => fs.readFileSync(path.join(dir, file), "utf8");

/** Runs a loader script with these stand-ins as its globals. */
const runLoader = (script: string, globals: Record<string, unknown>) =>
  new Function(...Object.keys(globals), script)(...Object.values(globals));

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
    expect(result.html).toContain(
      '<script type="application/json" id="meeting-form-content">{"b":2}</script>',
    );
    expect(scriptsStartedBy(result.html)).toEqual(PAGE_BOOT);
  });

  it("is idempotent and leaves pages without Gatsby's scripts unchanged", () => {
    expect(startPageBootInstead(result.html, LOADS)).toEqual({
      html: result.html,
      removed: [],
      unrecognised: [],
    });
    const plain = '<html><body><script>var x=1</script><script src="/x.js"></script></body></html>';
    expect(startPageBootInstead(plain, LOADS)).toEqual({
      html: plain,
      removed: [],
      unrecognised: ['<script src="/x.js">'],
    });
    expect(scriptsStartedBy(plain)).toEqual([]);
    // The loader of builds made before the rewrite was named page-scripts reads the same.
    expect(
      scriptsStartedBy(
        `<body><script id="deferred-scripts">${loaderScript(["/app-3.js"])}</script></body>`,
      ),
    ).toEqual(["/app-3.js"]);
  });

  it("keeps an inline script it does not know, even one that mentions Gatsby's globals", () => {
    const other = '<script>window.___webpackCompilationHash="x"; track();</script>';
    expect(startPageBootInstead(page.replace("</body>", `${other}</body>`), LOADS).html).toContain(
      other,
    );
  });
});

describe("pageBootScripts", () => {
  it("lists the entry's scripts from webpack's stats, runtime first, and the form's to prefetch, without stylesheets", () => {
    expect(pageBootScripts(stats)).toEqual({ ...LOADS, submitPath: SUBMIT_PATH });
  });

  it("says where each group comes from when a build lacks it", () => {
    const {
      app,
      "meeting-form": form,
      "page-boot": boot,
      "submit-path": submit,
    } = stats.namedChunkGroups;
    expect(() =>
      pageBootScripts({ namedChunkGroups: { app, "meeting-form": form, "submit-path": submit } }),
    ).toThrow(/no "page-boot" chunk group: gatsby-node\.ts/);
    expect(() =>
      pageBootScripts({ namedChunkGroups: { app, "page-boot": boot, "submit-path": submit } }),
    ).toThrow(/no "meeting-form" chunk group: src\/lib\/toasts\.ts/);
    expect(() =>
      pageBootScripts({ namedChunkGroups: { app, "page-boot": boot, "meeting-form": form } }),
    ).toThrow(/no "submit-path" chunk group: src\/lib\/meeting-request\.ts/);
  });
});

describe("loaderScript", () => {
  type FakeScript = { src: string; async: boolean; fetchPriority?: string };
  type FakeLink = { rel: string; as: string; href: string };

  /** Runs the loader against stand-ins for the DOM, Paint Timing and timers. */
  function run(scripts: string[], { paintTiming = true, later = [] as string[] } = {}) {
    const appended: FakeScript[] = [];
    const links: FakeLink[] = [];
    const observers: Array<{ callback: () => void; options: unknown }> = [];
    const timers: Array<{ run: () => void; ms: number }> = [];
    const document = {
      createElement: (tag: string) =>
        tag === "script" ? { src: "", async: false } : { rel: "", as: "", href: "" },
      body: { appendChild: (element: FakeScript) => appended.push(element) },
      head: { appendChild: (element: FakeLink) => links.push(element) },
    };
    class PerformanceObserver {
      constructor(private readonly callback: () => void) {}
      observe(options: unknown) {
        if (!paintTiming) throw new TypeError("no paint entries here");
        observers.push({ callback: this.callback, options });
      }
    }
    const setTimeout = (callback: () => void, ms: number) => timers.push({ run: callback, ms });
    runLoader(loaderScript(scripts, later), { document, PerformanceObserver, setTimeout });
    return { appended, links, observers, timers };
  }

  it("adds nothing before the first paint is reported, then every script once, in order, async, and prefetches the later ones", () => {
    const { appended, links, observers, timers } = run(["/a.js", "/b.js"], { later: ["/c.js"] });
    expect(appended).toEqual([]);
    expect(links).toEqual([]);
    expect(observers.map((observer) => observer.options)).toEqual([
      { type: "paint", buffered: true },
    ]);
    observers[0]!.callback(); // first-paint
    expect(appended).toEqual([
      { src: "/a.js", async: true, fetchPriority: "high" },
      { src: "/b.js", async: true, fetchPriority: "high" },
    ]);
    expect(links).toEqual([{ rel: "prefetch", as: "script", href: "/c.js" }]);
    observers[0]!.callback(); // first-contentful-paint
    timers.find((timer) => timer.ms === LOADER_FALLBACK_MS)!.run();
    expect(appended).toHaveLength(2);
    expect(links).toHaveLength(1);
  });

  it("still loads them after a while when no paint is reported (a background tab, a browser without Paint Timing)", () => {
    for (const paintTiming of [true, false]) {
      const { appended, timers } = run(["/a.js"], { paintTiming });
      expect(appended).toEqual([]);
      timers.find((timer) => timer.ms === LOADER_FALLBACK_MS)!.run();
      expect(appended).toEqual([{ src: "/a.js", async: true, fetchPriority: "high" }]);
    }
  });
});

describe("startPageBootInstead reads tags as a parser does", () => {
  it("recognises a chunk tag whose attributes come in another order or with an empty value", () => {
    const result = startPageBootInstead(
      '<html><body><script async="" src="/app-3.js"></script></body></html>',
      LOADS,
    );
    expect(result.removed).toEqual(["/app-3.js"]);
    expect(result.unrecognised).toEqual([]);
  });

  it("ignores a script tag inside a comment", () => {
    const html =
      '<html><body><!-- <script src="/old.js" async></script> --><script src="/app.js" async></script></body></html>';
    expect(startPageBootInstead(html, LOADS).removed).toEqual(["/app.js"]);
  });
});

describe("startPageBootInDirectory", () => {
  it("rewrites every page and counts it, also when run again; only a page with the form prefetches its scripts", async () => {
    const dir = publicDirWith({ "index.html": page, "404.html": pageWithoutForm });
    await expect(startPageBootInDirectory(dir)).resolves.toBe(2);
    expect(scriptsStartedBy(read(dir, "index.html"))).toEqual(PAGE_BOOT);
    expect(read(dir, "index.html")).toContain(loaderScript(PAGE_BOOT, FORM));
    expect(scriptsStartedBy(read(dir, "404.html"))).toEqual(PAGE_BOOT);
    expect(read(dir, "404.html")).toContain(loaderScript(PAGE_BOOT, []));
    await expect(startPageBootInDirectory(dir)).resolves.toBe(2);
  });

  it("stops the build when Gatsby's tags change so that a page would still load a script while parsing", async () => {
    const changed = page.replace(
      '<script src="/app-3.js" async></script>',
      '<script src="/app-3.js" defer></script>',
    );
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

describe("loaderScript, near the form", () => {
  const nearForm = {
    sectionId: "contact-form",
    margin: "50% 0px",
    attribute: "data-warmed-up",
    request: contactsWarmUpRequest({ url: "https://abc.supabase.co", anonKey: "anon" }),
    preload: SUBMIT_PATH,
  };

  function run({ withSection = true } = {}) {
    const links: Array<Record<string, string>> = [];
    const attributes: Record<string, string> = {};
    const fetched: unknown[][] = [];
    let report: ((entries: Array<{ isIntersecting: boolean }>) => void) | undefined;
    const observed: { margin?: string; disconnected: boolean } = { disconnected: false };
    const section = { setAttribute: (name: string, value: string) => (attributes[name] = value) };
    const document = {
      createElement: () => ({}),
      body: { appendChild: () => undefined },
      head: { appendChild: (element: Record<string, string>) => links.push(element) },
      getElementById: (id: string) => (withSection && id === "contact-form" ? section : null),
    };
    class IntersectionObserver {
      constructor(callback: typeof report, options: { rootMargin: string }) {
        report = callback;
        observed.margin = options.rootMargin;
      }
      observe() {}
      disconnect() {
        observed.disconnected = true;
      }
    }
    const fetch = (...args: unknown[]) => {
      fetched.push(args);
      return Promise.reject(new Error("offline")); // a failed warm-up is swallowed
    };
    const PerformanceObserver = class {
      observe() {}
    };
    const performance = { now: () => 1234.5 };
    runLoader(loaderScript(PAGE_BOOT, FORM, nearForm), {
      document,
      PerformanceObserver,
      setTimeout: () => undefined,
      IntersectionObserver,
      fetch,
      performance,
    });
    return {
      links,
      attributes,
      fetched,
      report: (isIntersecting: boolean) => report?.([{ isIntersecting }]),
      observed,
    };
  }

  it("does nothing until the form's section comes near, then preconnects, preloads the submit path, marks the time and sends the warm-up once", () => {
    const { links, attributes, fetched, report, observed } = run();
    expect(observed.margin).toBe("50% 0px");
    report(false);
    expect(fetched).toEqual([]);
    expect(links).toEqual([]);
    report(true);
    expect(links).toEqual([
      { rel: "preconnect", href: "https://abc.supabase.co", crossOrigin: "anonymous" },
      { rel: "preload", as: "script", href: "/submit-path-6.js" },
    ]);
    expect(attributes).toEqual({ "data-warmed-up": "1234.5" });
    expect(fetched).toEqual([JSON.parse(JSON.stringify(nearForm.request))]);
    expect(observed.disconnected).toBe(true);
  });

  it("needs the section: a page without the form warms nothing", () => {
    const { fetched, report } = run({ withSection: false });
    report(true);
    expect(fetched).toEqual([]);
  });

  it("is written only into pages with the form, when the build has Supabase settings", async () => {
    const dir = publicDirWith({ "index.html": page, "404.html": pageWithoutForm });
    await startPageBootInDirectory(dir, { url: "https://abc.supabase.co", anonKey: "anon" });
    expect(read(dir, "index.html")).toContain(loaderScript(PAGE_BOOT, FORM, nearForm));
    expect(read(dir, "404.html")).toContain(loaderScript(PAGE_BOOT, []));
  });
});
