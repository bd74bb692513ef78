import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { headersForPath, parseHeadersFile } from "./headers-file";
import { normalizeCsp, parseCsp } from "./csp";
import { cspHash } from "./inline-sources";
import {
  assertStrictPolicy,
  fillHeadersTemplate,
  findUnfilledPlaceholder,
  SecurityHeadersError,
  supabaseOrigin,
  validateHeadersFile,
  writeSecurityHeaders,
} from "./security-headers";

const root = path.resolve(__dirname, "..");
const template = fs.readFileSync(path.join(root, "static", "_headers"), "utf8");
const SUPABASE_URL = "https://abcdefghijklmnop.supabase.co";

const indexHtml = `<!DOCTYPE html><html lang="en"><head><style data-href="/styles.1.css" data-identity="gatsby-global-css">body{margin:0}</style><style>.gatsby-image-wrapper{position:relative}</style><noscript><style>.gatsby-image-wrapper noscript [data-main-image]{opacity:1!important}</style></noscript><script type="module">const e="undefined"!=typeof HTMLImageElement;</script><script type="application/ld+json">{"@context":"https://schema.org","@type":"Organization"}</script></head><body><div id="___gatsby"><div data-gatsby-image-wrapper="" class="gatsby-image-wrapper" style="max-width:800px;display:block"><img alt="" src="/static/a/b.png" style="object-fit:cover;opacity:0"></div></div><script id="gatsby-script-loader">/*<![CDATA[*/window.pagePath="/";/*]]>*/</script>
          <script
            id="gatsby-chunk-mapping"
          >
            window.___chunkMapping="{}";
          </script>
        <script>window.___webpackCompilationHash="abc";</script><script src="/app-1.js" async></script></body></html>`;
const notFoundHtml = indexHtml.replace('window.pagePath="/"', 'window.pagePath="/404/"');

/** A minimal published folder: two pages, a script chunk and an image. */
function makePublicDir(
  pages: Record<string, string> = {
    "index.html": indexHtml,
    "404/index.html": notFoundHtml,
    "404.html": notFoundHtml,
  },
): string {
  const project = fs.mkdtempSync(path.join(os.tmpdir(), "security-headers-"));
  fs.mkdirSync(path.join(project, "static"));
  fs.writeFileSync(path.join(project, "static", "_headers"), template);
  const publicDir = path.join(project, "public");
  fs.mkdirSync(publicDir);
  for (const [file, html] of Object.entries(pages)) {
    fs.mkdirSync(path.dirname(path.join(publicDir, file)), { recursive: true });
    fs.writeFileSync(path.join(publicDir, file), html);
  }
  fs.writeFileSync(path.join(publicDir, "app-1.js"), "console.log(1)");
  fs.mkdirSync(path.join(publicDir, "static", "a"), { recursive: true });
  fs.writeFileSync(path.join(publicDir, "static", "a", "b.png"), "png");
  fs.copyFileSync(path.join(project, "static", "_headers"), path.join(publicDir, "_headers"));
  return publicDir;
}

describe("writeSecurityHeaders", () => {
  let publicDir: string;
  let csp: Map<string, string[]>;
  let written: string;

  beforeAll(async () => {
    publicDir = makePublicDir();
    const result = await writeSecurityHeaders({ publicDir, supabaseUrl: `${SUPABASE_URL}/` });
    written = fs.readFileSync(path.join(publicDir, "_headers"), "utf8");
    csp = parseCsp(result.contentSecurityPolicy);
  });

  it("allows every inline script of every page by hash, and nothing inline otherwise", () => {
    expect(csp.get("script-src")).toEqual([
      "'self'",
      ...[
        cspHash('/*<![CDATA[*/window.pagePath="/";/*]]>*/'),
        cspHash('/*<![CDATA[*/window.pagePath="/404/";/*]]>*/'),
        cspHash('\n            window.___chunkMapping="{}";\n          '),
        cspHash('window.___webpackCompilationHash="abc";'),
        cspHash('const e="undefined"!=typeof HTMLImageElement;'),
      ].sort(),
    ]);
    expect(csp.get("script-src")).not.toContain("'unsafe-inline'");
    expect(csp.get("script-src")).not.toContain(
      cspHash('{"@context":"https://schema.org","@type":"Organization"}'),
    );
    expect(csp.get("script-src-attr")).toEqual(["'none'"]);
  });

  it("allows the inline <style> elements by hash, never 'unsafe-inline'", () => {
    const styleHashes = [
      cspHash("body{margin:0}"),
      cspHash(".gatsby-image-wrapper{position:relative}"),
      cspHash(".gatsby-image-wrapper noscript [data-main-image]{opacity:1!important}"),
    ];
    expect(csp.get("style-src-elem")).toEqual(expect.arrayContaining(["'self'", ...styleHashes]));
    expect(csp.get("style-src-elem")).toHaveLength(4);
    expect(csp.get("style-src-elem")).not.toContain("'unsafe-inline'");
  });

  it("allows exactly the style attributes found in the HTML, by hash through 'unsafe-hashes'; the style-src fallback lists none", () => {
    expect(csp.get("style-src-attr")).toEqual([
      "'unsafe-hashes'",
      ...[cspHash("max-width:800px;display:block"), cspHash("object-fit:cover;opacity:0")].sort(),
    ]);
    expect(csp.get("style-src")).toEqual(csp.get("style-src-elem"));
  });

  it("lets the page connect to itself and to the Supabase origin only", () => {
    expect(csp.get("connect-src")).toEqual(["'self'", SUPABASE_URL]);
  });

  it("locks down everything else", () => {
    expect(Object.fromEntries(csp)).toMatchObject({
      "default-src": ["'self'"],
      "img-src": ["'self'", "data:"],
      "font-src": ["'self'"],
      "object-src": ["'none'"],
      "base-uri": ["'self'"],
      "form-action": ["'self'"],
      "frame-ancestors": ["'none'"],
    });
    expect(csp.has("upgrade-insecure-requests")).toBe(false);
  });

  it("writes a file hosts read the same way: one policy on every page, no placeholders, short lines", () => {
    expect(written).not.toMatch(/\{\{|\}\}/);
    expect(written.split("\n").every((line) => line.length <= 2000)).toBe(true);
    const rules = parseHeadersFile(written);
    for (const urlPath of ["/", "/404/", "/404.html", "/missing", "/static/a/b.png", "/app-1.js"]) {
      const headers = headersForPath(rules, urlPath);
      expect(headers["content-security-policy"]).toBe(
        [...csp].map(([name, sources]) => [name, ...sources].join(" ")).join("; "),
      );
      expect(headers["x-content-type-options"]).toBe("nosniff");
      expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
      expect(headers["strict-transport-security"]).toBe(
        "max-age=63072000; includeSubDomains; preload",
      );
      expect(headers["x-frame-options"]).toBe("DENY");
      expect(headers["permissions-policy"]).toMatch(
        /camera=\(\).*geolocation=\(\).*microphone=\(\)/,
      );
    }
    for (const asset of ["/static/a/b.png", "/app-1.js"])
      expect(headersForPath(rules, asset)["cache-control"]).toBe(
        "public, max-age=31536000, immutable",
      );
    expect(headersForPath(rules, "/")["cache-control"]).toBeUndefined();
  });

  it("can be run again on the same build with the same result", async () => {
    const again = await writeSecurityHeaders({ publicDir, supabaseUrl: SUPABASE_URL });
    expect(fs.readFileSync(again.outputPath, "utf8")).toBe(written);
  });

  it("refuses a page with an inline event handler, writing nothing", async () => {
    const dir = makePublicDir({ "index.html": '<button onclick="go()">Go</button>' });
    await expect(
      writeSecurityHeaders({ publicDir: dir, supabaseUrl: SUPABASE_URL }),
    ).rejects.toThrow(/index\.html: inline event handler <button onclick>/);
    expect(fs.readFileSync(path.join(dir, "_headers"), "utf8")).toBe(template);
  });

  it.each([[undefined], [""], ["not a url"], ["ftp://example.com"]])(
    "refuses the Supabase URL %j",
    async (supabaseUrl) => {
      await expect(writeSecurityHeaders({ publicDir, supabaseUrl })).rejects.toThrow(
        SecurityHeadersError,
      );
    },
  );

  it("refuses an empty build", async () => {
    const dir = makePublicDir({});
    await expect(
      writeSecurityHeaders({ publicDir: dir, supabaseUrl: SUPABASE_URL }),
    ).rejects.toThrow(/No HTML files/);
  });
});

describe("fillHeadersTemplate", () => {
  const values = {
    "inline-script-hashes": "'sha256-a'",
    "inline-style-hashes": "",
    "style-attribute-hashes": "",
    "supabase-origin": "https://x.supabase.co",
  };

  it("fills placeholders, drops the template's comments and writes 'none' for empty source lists", () => {
    const filled = fillHeadersTemplate(
      "# about {{supabase-origin}}\n/*\n  Content-Security-Policy: script-src 'self' {{inline-script-hashes}}; style-src-attr {{style-attribute-hashes}}; connect-src 'self' {{ supabase-origin }}\n",
      values,
    );
    expect(filled).toBe(
      "# Generated by build-time/security-headers.ts from static/_headers at build time: edit the template.\n/*\n  Content-Security-Policy: script-src 'self' 'sha256-a'; style-src-attr 'none'; connect-src 'self' https://x.supabase.co\n",
    );
  });

  it("refuses an unknown placeholder", () => {
    expect(() => fillHeadersTemplate("/*\n  X-A: {{script-hashes}}\n", values)).toThrow(
      /unknown placeholder \{\{script-hashes\}\}/,
    );
  });
});

describe("normalizeCsp", () => {
  it("collapses whitespace and duplicates, keeps valueless directives", () => {
    expect(
      normalizeCsp("  default-src  'self' 'self' ;; style-src ; upgrade-insecure-requests; "),
    ).toBe("default-src 'self'; style-src 'none'; upgrade-insecure-requests");
  });
});

describe("assertStrictPolicy", () => {
  const origin = "https://x.supabase.co";
  const good = `default-src 'self'; script-src 'self' 'sha256-a'; style-src-elem 'self'; connect-src 'self' ${origin}; object-src 'none'; base-uri 'self'; frame-ancestors 'none'`;

  it("accepts the strict policy", () => {
    expect(() => assertStrictPolicy(good, origin)).not.toThrow();
  });

  it.each([
    [
      good.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'"),
      /script-src allows 'unsafe-inline'/,
    ],
    [
      good.replace("script-src 'self'", "script-src 'self' 'unsafe-eval'"),
      /script-src allows 'unsafe-eval'/,
    ],
    [good.replace("script-src 'self'", "script-src 'self' https:"), /script-src allows https:/],
    [`${good}; worker-src 'self' blob:`, /worker-src allows blob:/],
    [
      good.replace("style-src-elem 'self'", "style-src-elem 'self' 'unsafe-inline'"),
      /style-src-elem allows 'unsafe-inline'/,
    ],
    [`${good}; style-src-attr 'unsafe-inline'`, /style-src-attr allows 'unsafe-inline'/],
    [
      good.replace(
        `connect-src 'self' ${origin}`,
        `connect-src 'self' ${origin} https://evil.example`,
      ),
      /more than 'self'.*evil/,
    ],
    [
      good.replace(`connect-src 'self' ${origin}`, "connect-src 'self'"),
      /does not allow https:\/\/x\.supabase\.co/,
    ],
    [
      good.replace("frame-ancestors 'none'", "frame-ancestors 'self'"),
      /frame-ancestors is not 'none'/,
    ],
    [good.replace("object-src 'none'; ", ""), /object-src is missing/],
  ])("refuses %s", (policy, message) => {
    expect(() => assertStrictPolicy(policy, origin)).toThrow(message);
  });
});

describe("supabaseOrigin", () => {
  it("keeps scheme, host and port only", () => {
    expect(supabaseOrigin("http://127.0.0.1:54321/")).toBe("http://127.0.0.1:54321");
    expect(supabaseOrigin(" https://abc.supabase.co/rest/v1 ")).toBe("https://abc.supabase.co");
  });
});

describe("validateHeadersFile", () => {
  it("refuses a header set by two rules for the same path", () => {
    const text =
      "/*\n  Content-Security-Policy: default-src 'self'\n/static/*\n  Content-Security-Policy: default-src 'none'\n";
    expect(() => validateHeadersFile(text, ["/", "/static/x.png"])).toThrow(
      /content-security-policy for \/static\/x\.png in more than one rule/,
    );
  });

  it("accepts a narrower rule that detaches the header before setting its own", () => {
    const text =
      "/*\n  Content-Security-Policy: default-src 'self'\n/admin/*\n  ! Content-Security-Policy\n  Content-Security-Policy: default-src 'none'\n";
    expect(() => validateHeadersFile(text, ["/", "/admin/"])).not.toThrow();
  });

  it("refuses a line Cloudflare Pages would ignore", () => {
    expect(() => validateHeadersFile(`/*\n  X-Long: ${"a".repeat(2000)}\n`, ["/"])).toThrow(
      /2,?000/,
    );
  });
});

describe("findUnfilledPlaceholder", () => {
  it("recognises the template, with or without spaces inside the braces, and not a filled file", () => {
    expect(
      findUnfilledPlaceholder(
        "  Content-Security-Policy: script-src 'self' {{inline-script-hashes}}",
      ),
    ).toBe("{{inline-script-hashes}}");
    expect(
      findUnfilledPlaceholder(
        "  Content-Security-Policy: connect-src 'self' {{ supabase-origin }}",
      ),
    ).toBe("{{ supabase-origin }}");
    expect(
      findUnfilledPlaceholder("  Content-Security-Policy: script-src 'self' 'sha256-a'"),
    ).toBeUndefined();
  });
});
