import { createHash } from "node:crypto";
import { cspHash, findInlineSources, isExecutableScript } from "./html";

it.each([
  [{}, true],
  [{ type: "" }, true],
  [{ type: "text/javascript" }, true],
  [{ type: " TEXT/JavaScript " }, true],
  [{ type: "application/javascript" }, true],
  [{ type: "module" }, true],
  [{ type: "importmap" }, true],
  [{ type: "speculationrules" }, true],
  [{ language: "javascript" }, true],
  [{ language: "" }, true],
  [{ type: "application/ld+json" }, false],
  [{ type: "application/json" }, false],
  [{ type: "text/plain" }, false],
  [{ type: "text/javascript; charset=utf-8" }, false],
  [{ language: "vbscript" }, false],
])("isExecutableScript(%j) is %s", (attributes, runs) => {
  expect(isExecutableScript(new Map(Object.entries(attributes)))).toBe(runs);
});

it("cspHash hashes the UTF-8 bytes, whitespace included, as browsers print it", () => {
  // Chrome's console: "Either the 'unsafe-inline' keyword, a hash ('sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI='), ..."
  expect(cspHash("alert(1)")).toBe("'sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI='");
  const utf8 = createHash("sha256")
    .update(Buffer.from([0x63, 0x3d, 0x22, 0xc3, 0xa9, 0x22]))
    .digest("base64");
  expect(cspHash('c="é"')).toBe(`'sha256-${utf8}'`);
  expect(cspHash(" alert(1)")).not.toBe(cspHash("alert(1)"));
});

describe("findInlineSources", () => {
  it.each<[string, string, "scripts" | "styles" | "styleAttributes", string[]]>([
    [
      "every inline script exactly as written between the tags, not external ones",
      [
        '<!DOCTYPE html><html><head><script id="gatsby-script-loader">/*<![CDATA[*/window.pagePath="/";/*]]>*/</script>',
        '<script async src="/app-1234.js"></script><script src="/with-body.js">ignored()</script></head><body>',
        '<script id="gatsby-chunk-mapping">\n  window.___chunkMapping="{}";\n</script>',
        "<script type=\"module\">const e=1;</script><SCRIPT TYPE='text/javascript'>upper()</SCRIPT ></body></html>",
      ].join("\n"),
      "scripts",
      [
        '/*<![CDATA[*/window.pagePath="/";/*]]>*/',
        '\n  window.___chunkMapping="{}";\n',
        "const e=1;",
        "upper()",
      ],
    ],
    [
      "no JSON-LD or other data blocks among the scripts",
      '<script type="application/ld+json">{"@context":"https://schema.org"}</script><script>run()</script>',
      "scripts",
      ["run()"],
    ],
    [
      "scripts with character references undecoded (raw text)",
      '<script>a = "&amp;";</script>',
      "scripts",
      ['a = "&amp;";'],
    ],
    [
      "styles with character references undecoded",
      '<style>a::after{content:"&lt;"}</style>',
      "styles",
      ['a::after{content:"&lt;"}'],
    ],
    ["no script inside a comment", "<!-- <script>commented()</script> -->", "scripts", []],
    [
      "no script inside an attribute value",
      '<div title="<script>x()</script>"></div>',
      "scripts",
      [],
    ],
    ["no style inside an attribute value", "<div data-x='<style>y</style>'></div>", "styles", []],
    [
      "a script whole past a look-alike of its closing tag",
      '<script>const s = "</scripts>";</script>',
      "scripts",
      ['const s = "</scripts>";'],
    ],
    [
      "scripts with CR LF normalised to LF, as the parser does",
      "<script>a();\r\nb();\rc();</script>",
      "scripts",
      ["a();\nb();\nc();"],
    ],
    [
      "style elements, the one gatsby-plugin-image puts in <noscript> included",
      '<style data-href="/styles.css">body{margin:0}</style><noscript><style>.w noscript [data-main-image]{opacity:1!important}</style></noscript>',
      "styles",
      ["body{margin:0}", ".w noscript [data-main-image]{opacity:1!important}"],
    ],
    [
      "styles inside <template> contents",
      "<template><style>t{}</style></template>",
      "styles",
      ["t{}"],
    ],
    [
      "style attribute values decoded, as the DOM holds them",
      `<div style="max-width:800px;display:block"></div><img style='font-family:&quot;A&quot;;content:&#x27;x&#39;' alt=""><p style=color:red>`,
      "styleAttributes",
      ["max-width:800px;display:block", `font-family:"A";content:'x'`, "color:red"],
    ],
    [
      "what React emits and numeric references, decoded",
      '<p style="&amp;&lt;&gt;&quot;&#x27;&#39;&#169;"></p>',
      "styleAttributes",
      ["&<>\"''©"],
    ],
    ["a bare ampersand left alone", '<p style="a & b"></p>', "styleAttributes", ["a & b"]],
    [
      "every named reference the HTML specification knows, decoded",
      '<p style="content:&hellip;&nbsp;"></p>',
      "styleAttributes",
      ["content:\u2026\u00a0"],
    ],
  ])("finds %s", (_title, html, kind, expected) => {
    expect(findInlineSources(html)[kind]).toEqual(expected);
  });

  it("reports inline event handlers and javascript: URLs, which no hash may allow", () => {
    const found = findInlineSources(
      '<img src="a.png" onerror="x()"><a href=" JavaScript:void(0)">a</a><a href="/ok">b</a>',
    );
    expect(found.eventHandlerAttributes).toEqual(["<img onerror>"]);
    expect(found.javascriptUrls).toEqual(["<a href>"]);
  });
});
