import { HeadersFileError, headersForPath, parseHeadersFile } from "./headers-file";

const sample = `# comment
/*
  X-Frame-Options: DENY
  Content-Security-Policy: default-src 'self'; connect-src 'self' https://abc.supabase.co

/static/*
  Cache-Control: public, max-age=31536000, immutable

/*.js
  Cache-Control: public, max-age=31536000, immutable

/team/:member/card
  X-Robots-Tag: noindex
  X-Robots-Tag: nosnippet

/exact
  X-Exact: yes
`;

describe("parseHeadersFile", () => {
  it("reads rules in order, with values that contain colons", () => {
    const rules = parseHeadersFile(sample);
    expect(rules.map((rule) => rule.pattern)).toEqual([
      "/*",
      "/static/*",
      "/*.js",
      "/team/:member/card",
      "/exact",
    ]);
    expect(rules[0]!.headers).toEqual([
      ["X-Frame-Options", "DENY"],
      ["Content-Security-Policy", "default-src 'self'; connect-src 'self' https://abc.supabase.co"],
    ]);
  });

  it("joins a header repeated within one rule", () => {
    expect(parseHeadersFile(sample)[3]!.headers).toEqual([["X-Robots-Tag", "noindex, nosnippet"]]);
  });

  it.each([
    ["  X-A: b\n", /before any path/],
    ["/*\n  no colon here\n", /Name: value/],
    ["/*\n  X-Empty:\n", /no value/],
    ["/*\n  Bad Name: x\n", /invalid header name/],
  ])("rejects %j", (text, message) => {
    expect(() => parseHeadersFile(text)).toThrow(HeadersFileError);
    expect(() => parseHeadersFile(text)).toThrow(message);
  });
});

describe("headersForPath", () => {
  const rules = parseHeadersFile(sample);

  it("applies /* to every path, the root and unknown paths included", () => {
    for (const urlPath of ["/", "/missing", "/missing/", "/a/b/c.html"]) {
      expect(headersForPath(rules, urlPath)["x-frame-options"]).toBe("DENY");
    }
  });

  it("lets a splat match across slashes, and nothing else", () => {
    expect(headersForPath(rules, "/static/abc/photo.png")["cache-control"]).toContain("immutable");
    expect(headersForPath(rules, "/statics/photo.png")["cache-control"]).toBeUndefined();
    expect(headersForPath(rules, "/app-5f3c.js")["cache-control"]).toContain("immutable");
    expect(headersForPath(rules, "/nested/chunk.js")["cache-control"]).toContain("immutable");
    expect(headersForPath(rules, "/page-data/app-data.json")["cache-control"]).toBeUndefined();
    expect(headersForPath(rules, "/appxjs")["cache-control"]).toBeUndefined();
  });

  it("matches a :placeholder against exactly one segment", () => {
    expect(headersForPath(rules, "/team/ana/card")["x-robots-tag"]).toBe("noindex, nosnippet");
    expect(headersForPath(rules, "/team/ana/bo/card")["x-robots-tag"]).toBeUndefined();
  });

  it("treats a trailing slash as optional and ignores the query string", () => {
    expect(headersForPath(rules, "/exact/")["x-exact"]).toBe("yes");
    expect(headersForPath(rules, "/exact?x=1")["x-exact"]).toBe("yes");
    expect(headersForPath(rules, "/exactly")["x-exact"]).toBeUndefined();
  });

  it("joins a header set by two matching rules, as hosts do", () => {
    const overlapping = parseHeadersFile(
      "/*\n  Cache-Control: no-cache\n/static/*\n  Cache-Control: immutable\n",
    );
    expect(headersForPath(overlapping, "/static/x")["cache-control"]).toBe("no-cache, immutable");
  });

  it("lets a rule detach a header (! Name) and set its own, as Cloudflare Pages does", () => {
    const replacing = parseHeadersFile(
      "/*\n  Content-Security-Policy: default-src 'self'\n/admin/*\n  ! Content-Security-Policy\n  Content-Security-Policy: default-src 'none'\n",
    );
    expect(replacing[1]!.detached).toEqual(["content-security-policy"]);
    expect(headersForPath(replacing, "/admin/")["content-security-policy"]).toBe(
      "default-src 'none'",
    );
    expect(headersForPath(replacing, "/")["content-security-policy"]).toBe("default-src 'self'");
  });
});
