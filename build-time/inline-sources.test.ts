import { createHash } from "node:crypto";
import { cspHash, findInlineSources } from "./inline-sources";

describe("cspHash", () => {
  it("matches the value browsers print for alert(1)", () => {
    // Chrome's console: "Either the 'unsafe-inline' keyword, a hash ('sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI='), ..."
    expect(cspHash("alert(1)")).toBe("'sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI='");
  });

  it("hashes the UTF-8 bytes, whitespace included", () => {
    const utf8 = createHash("sha256")
      .update(Buffer.from([0x63, 0x3d, 0x22, 0xc3, 0xa9, 0x22]))
      .digest("base64");
    expect(cspHash('c="é"')).toBe(`'sha256-${utf8}'`);
    expect(cspHash(" alert(1)")).not.toBe(cspHash("alert(1)"));
  });
});

describe("findInlineSources", () => {
  it("finds every inline script exactly as written between the tags, and skips external ones", () => {
    const html = [
      "<!DOCTYPE html><html><head>",
      '<script id="gatsby-script-loader">/*<![CDATA[*/window.pagePath="/";/*]]>*/</script>',
      '<script async src="/app-1234.js"></script>',
      '<script src="/with-body.js">ignored()</script>',
      "</head><body>",
      '<script id="gatsby-chunk-mapping">\n            window.___chunkMapping="{}";\n          </script>',
      '<script type="module">const e=1;</script>',
      "<SCRIPT TYPE='text/javascript'>upper()</SCRIPT >",
      "</body></html>",
    ].join("\n");
    expect(findInlineSources(html).scripts).toEqual([
      '/*<![CDATA[*/window.pagePath="/";/*]]>*/',
      '\n            window.___chunkMapping="{}";\n          ',
      "const e=1;",
      "upper()",
    ]);
  });

  it("leaves JSON-LD and other data blocks out of script-src", () => {
    const html =
      '<script type="application/ld+json">{"@context":"https://schema.org"}</script><script>run()</script>';
    expect(findInlineSources(html).scripts).toEqual(["run()"]);
  });

  it("does not decode character references inside scripts and styles (they are raw text)", () => {
    const found = findInlineSources(
      '<script>a = "&amp;";</script><style>a::after{content:"&lt;"}</style>',
    );
    expect(found.scripts).toEqual(['a = "&amp;";']);
    expect(found.styles).toEqual(['a::after{content:"&lt;"}']);
  });

  it("ignores markup inside comments and attribute values", () => {
    const html =
      "<!-- <script>commented()</script> --><div title=\"<script>x()</script>\" data-x='<style>y</style>'></div>";
    const found = findInlineSources(html);
    expect(found.scripts).toEqual([]);
    expect(found.styles).toEqual([]);
  });

  it("does not end a script at a look-alike of its closing tag", () => {
    expect(findInlineSources('<script>const s = "</scripts>";</script>').scripts).toEqual([
      'const s = "</scripts>";',
    ]);
  });

  it("normalises CR LF to LF as the HTML parser does", () => {
    expect(findInlineSources("<script>a();\r\nb();\rc();</script>").scripts).toEqual([
      "a();\nb();\nc();",
    ]);
  });

  it("finds style elements, including the one gatsby-plugin-image puts in <noscript>", () => {
    const html =
      '<style data-href="/styles.css" data-identity="gatsby-global-css">body{margin:0}</style>' +
      "<noscript><style>.gatsby-image-wrapper noscript [data-main-image]{opacity:1!important}</style></noscript>";
    expect(findInlineSources(html).styles).toEqual([
      "body{margin:0}",
      ".gatsby-image-wrapper noscript [data-main-image]{opacity:1!important}",
    ]);
  });

  it("collects style attribute values decoded, as the DOM holds them", () => {
    const html = `<div style="max-width:800px;display:block"></div><img style='font-family:&quot;A&quot;;content:&#x27;x&#39;' alt=""><p style=color:red>`;
    expect(findInlineSources(html).styleAttributes).toEqual([
      "max-width:800px;display:block",
      `font-family:"A";content:'x'`,
      "color:red",
    ]);
  });

  it("reports inline event handlers and javascript: URLs, which no hash may allow", () => {
    const found = findInlineSources(
      '<img src="a.png" onerror="x()"><a href=" JavaScript:void(0)">a</a><a href="/ok">b</a>',
    );
    expect(found.eventHandlerAttributes).toEqual(["<img onerror>"]);
    expect(found.javascriptUrls).toEqual(["<a href>"]);
  });
});

describe("style attributes are read as the DOM holds them", () => {
  it("decodes what React emits and numeric references", () => {
    expect(
      findInlineSources('<p style="&amp;&lt;&gt;&quot;&#x27;&#39;&#169;"></p>').styleAttributes,
    ).toEqual(["&<>\"''©"]);
  });

  it("leaves a bare ampersand alone", () => {
    expect(findInlineSources('<p style="a & b"></p>').styleAttributes).toEqual(["a & b"]);
  });

  it("decodes every named reference the HTML specification knows, as the browser does before hashing", () => {
    expect(findInlineSources('<p style="content:&hellip;&nbsp;"></p>').styleAttributes).toEqual([
      "content:\u2026\u00a0",
    ]);
  });

  it("finds styles inside <template> contents", () => {
    expect(findInlineSources("<template><style>t{}</style></template>").styles).toEqual(["t{}"]);
  });
});
