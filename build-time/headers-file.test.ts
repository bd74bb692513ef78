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

/admin/*
  ! Content-Security-Policy
  Content-Security-Policy: default-src 'none'
`;
const rules = parseHeadersFile(sample);

it("parseHeadersFile reads rules in order, values with colons, a header repeated in a rule joined, and detached headers", () => {
  expect(rules.map(({ pattern, headers, detached }) => [pattern, headers, detached])).toEqual([
    [
      "/*",
      [
        ["X-Frame-Options", "DENY"],
        [
          "Content-Security-Policy",
          "default-src 'self'; connect-src 'self' https://abc.supabase.co",
        ],
      ],
      [],
    ],
    ["/static/*", [["Cache-Control", "public, max-age=31536000, immutable"]], []],
    ["/*.js", [["Cache-Control", "public, max-age=31536000, immutable"]], []],
    ["/team/:member/card", [["X-Robots-Tag", "noindex, nosnippet"]], []],
    ["/exact", [["X-Exact", "yes"]], []],
    ["/admin/*", [["Content-Security-Policy", "default-src 'none'"]], ["content-security-policy"]],
  ]);
});

it.each([
  ["  X-A: b\n", /before any path/],
  ["/*\n  no colon here\n", /Name: value/],
  ["/*\n  X-Empty:\n", /no value/],
  ["/*\n  Bad Name: x\n", /invalid header name/],
  ["/*\n  ! Bad Name\n", /invalid header name to detach/],
  ["/*\n  X-A: b\n  /indented\n", /must not be indented/],
])("parseHeadersFile rejects %j", (text, message) => {
  expect(() => parseHeadersFile(text)).toThrow(HeadersFileError);
  expect(() => parseHeadersFile(text)).toThrow(message);
});

it.each([
  // /* applies to every path, the root and unknown paths included.
  ["/", "x-frame-options", "DENY"],
  ["/missing", "x-frame-options", "DENY"],
  ["/missing/", "x-frame-options", "DENY"],
  ["/a/b/c.html", "x-frame-options", "DENY"],
  // A splat matches across slashes, and nothing else.
  ["/static/abc/photo.png", "cache-control", "public, max-age=31536000, immutable"],
  ["/statics/photo.png", "cache-control", undefined],
  ["/app-5f3c.js", "cache-control", "public, max-age=31536000, immutable"],
  ["/nested/chunk.js", "cache-control", "public, max-age=31536000, immutable"],
  ["/page-data/app-data.json", "cache-control", undefined],
  ["/appxjs", "cache-control", undefined],
  // A :placeholder matches exactly one segment.
  ["/team/ana/card", "x-robots-tag", "noindex, nosnippet"],
  ["/team/ana/bo/card", "x-robots-tag", undefined],
  // A trailing slash is optional and the query string ignored.
  ["/exact/", "x-exact", "yes"],
  ["/exact?x=1", "x-exact", "yes"],
  ["/exactly", "x-exact", undefined],
  // A detached header is replaced by the narrower rule's own.
  ["/admin/", "content-security-policy", "default-src 'none'"],
  [
    "/",
    "content-security-policy",
    "default-src 'self'; connect-src 'self' https://abc.supabase.co",
  ],
])("headersForPath(%j) sends %s: %j", (urlPath, name, value) => {
  expect(headersForPath(rules, urlPath)[name]).toBe(value);
});

it("headersForPath joins a header set by two matching rules, as hosts do", () => {
  const overlapping = parseHeadersFile(
    "/*\n  Cache-Control: no-cache\n/static/*\n  Cache-Control: immutable\n",
  );
  expect(headersForPath(overlapping, "/static/x")["cache-control"]).toBe("no-cache, immutable");
});
