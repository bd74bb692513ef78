import fs from "node:fs";
import path from "node:path";
import { parseCsp } from "./csp";
import { headersForPath, parseHeadersFile } from "./headers-file";
import { cspHash } from "./html";
import {
  fillHeadersTemplate,
  SecurityHeadersError,
  validateHeadersFile,
  writeSecurityHeaders,
} from "./security-headers";
import { builtSite } from "./built-site.test-support";

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

/** A minimal published folder: these pages, a script chunk, an image and the unfilled template. */
const makePublicDir = (
  pages: Record<string, string> = {
    "index.html": indexHtml,
    "404/index.html": notFoundHtml,
    "404.html": notFoundHtml,
  },
) =>
  builtSite({
    ...pages,
    "app-1.js": "console.log(1)",
    "static/a/b.png": "png",
    _headers: template,
  });

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

  it("allows exactly the inline scripts, styles and style attributes of the pages by hash, connects to Supabase only, and locks down the rest", () => {
    const hashes = (...texts: string[]) => texts.map(cspHash).sort();
    const styles = [
      "'self'",
      ...hashes(
        "body{margin:0}",
        ".gatsby-image-wrapper{position:relative}",
        ".gatsby-image-wrapper noscript [data-main-image]{opacity:1!important}",
      ),
    ];
    // Not the JSON-LD block, not 'unsafe-inline' anywhere.
    expect(Object.fromEntries(csp)).toEqual({
      "default-src": ["'self'"],
      "script-src": [
        "'self'",
        ...hashes(
          '/*<![CDATA[*/window.pagePath="/";/*]]>*/',
          '/*<![CDATA[*/window.pagePath="/404/";/*]]>*/',
          '\n            window.___chunkMapping="{}";\n          ',
          'window.___webpackCompilationHash="abc";',
          'const e="undefined"!=typeof HTMLImageElement;',
        ),
      ],
      "script-src-attr": ["'none'"],
      "worker-src": ["'self'"],
      // The style-src fallback lists no attribute hashes.
      "style-src": styles,
      "style-src-elem": styles,
      "style-src-attr": [
        "'unsafe-hashes'",
        ...hashes("max-width:800px;display:block", "object-fit:cover;opacity:0"),
      ],
      "img-src": ["'self'", "data:"],
      "font-src": ["'self'"],
      "connect-src": ["'self'", SUPABASE_URL],
      "object-src": ["'none'"],
      "base-uri": ["'self'"],
      "form-action": ["'self'"],
      "frame-ancestors": ["'none'"],
    });
  });

  it("writes a file hosts read the same way: one policy on every page, no placeholders, short lines", () => {
    const rules = parseHeadersFile(written);
    const policy = [...csp].map((directive) => directive.flat().join(" ")).join("; ");
    for (const urlPath of ["/", "/404/", "/404.html", "/missing", "/static/a/b.png", "/app-1.js"]) {
      expect(headersForPath(rules, urlPath)).toMatchObject({
        "content-security-policy": policy,
        "x-content-type-options": "nosniff",
        "referrer-policy": "strict-origin-when-cross-origin",
        "strict-transport-security": "max-age=63072000; includeSubDomains; preload",
        "x-frame-options": "DENY",
        "cross-origin-opener-policy": "same-origin",
        "permissions-policy": expect.stringMatching(
          /camera=\(\).*geolocation=\(\).*microphone=\(\)/,
        ),
      });
    }
    for (const asset of ["/static/a/b.png", "/app-1.js"])
      expect(headersForPath(rules, asset)["cache-control"]).toBe(
        "public, max-age=31536000, immutable",
      );
    expect(headersForPath(rules, "/")).not.toHaveProperty("cache-control");
    expect(headersForPath(rules, "/")).not.toHaveProperty("x-robots-tag");
  });

  it("can be run again on the same build with the same result, keeping only the Supabase origin", async () => {
    const supabaseUrl = ` ${SUPABASE_URL}/rest/v1 `;
    const again = await writeSecurityHeaders({ publicDir, supabaseUrl });
    expect(fs.readFileSync(again.outputPath, "utf8")).toBe(written);
  });

  const eventHandler = { "index.html": '<button onclick="go()">Go</button>' };
  it.each<[string, Record<string, string>, string | undefined, RegExp]>([
    [
      "a page with an inline event handler",
      eventHandler,
      SUPABASE_URL,
      /index\.html: inline event handler <button onclick>/,
    ],
    ["an empty build", {}, SUPABASE_URL, /No HTML files/],
    ...[undefined, "", "not a url", "ftp://example.com"].map(
      (url): [string, Record<string, string>, string | undefined, RegExp] => [
        `the Supabase URL ${JSON.stringify(url)}`,
        eventHandler,
        url,
        /GATSBY_SUPABASE_URL must be/,
      ],
    ),
  ])("refuses %s, writing nothing", async (_title, pages, supabaseUrl, message) => {
    const dir = makePublicDir(pages);
    const refusal = writeSecurityHeaders({ publicDir: dir, supabaseUrl });
    await expect(refusal).rejects.toThrow(SecurityHeadersError);
    await expect(refusal).rejects.toThrow(message);
    expect(fs.readFileSync(path.join(dir, "_headers"), "utf8")).toBe(template);
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

describe("validateHeadersFile", () => {
  const policy = (value: string) => `  Content-Security-Policy: ${value}\n`;
  it.each([
    [
      "a header set by two rules for the same path",
      `/*\n${policy("default-src 'self'")}/static/*\n${policy("default-src 'none'")}`,
      /content-security-policy for \/static\/x\.png in more than one rule/,
    ],
    ["a line Cloudflare Pages would ignore", `/*\n  X-Long: ${"a".repeat(2000)}\n`, /2,?000/],
    [
      "a placeholder left unfilled",
      `/*\n${policy("script-src {{ inline-script-hashes }}")}`,
      /placeholder \{\{ inline-script-hashes \}\}/,
    ],
  ])("refuses %s", (_title, text, message) => {
    expect(() => validateHeadersFile(text, ["/", "/static/x.png"])).toThrow(message);
  });

  it("accepts a narrower rule that detaches the header before setting its own", () => {
    const text = `/*\n${policy("default-src 'self'")}/admin/*\n  ! Content-Security-Policy\n${policy("default-src 'none'")}`;
    expect(() => validateHeadersFile(text, ["/", "/admin/"])).not.toThrow();
  });
});
