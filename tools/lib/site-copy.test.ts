import { withoutScripts } from "./site-copy";

describe("withoutScripts", () => {
  it("removes every script that runs, inline or loaded, and keeps data blocks and everything else", () => {
    const html = [
      "<head><title>Page</title>",
      '<script type="application/ld+json">{"@type":"Organization"}</script>',
      '<script type="module">const e = 1;</script>',
      "</head><body><main><h1>Hello</h1></main>",
      '<script id="gatsby-script-loader">/*<![CDATA[*/window.pagePath="/";/*]]>*/</script>',
      '<script src="/app-1.js" async></script>',
      "</body>",
    ].join("");
    expect(withoutScripts(html)).toBe(
      '<head><title>Page</title><script type="application/ld+json">{"@type":"Organization"}</script></head><body><main><h1>Hello</h1></main></body>',
    );
  });
});
