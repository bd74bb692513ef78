import { createElement, Fragment } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { withoutHeadMarkers } from "./head-elements";

describe("withoutHeadMarkers", () => {
  it("takes Gatsby's marker off the Head's tags and keeps everything else about them", () => {
    const components = [
      createElement("title", { key: "title", "data-gatsby-head": true }, "Book a meeting"),
      createElement("meta", { key: "description", name: "description", content: "Microtransit that lasts", "data-gatsby-head": true }),
      createElement("script", { key: "ld", type: "application/ld+json", "data-gatsby-head": true, dangerouslySetInnerHTML: { __html: '{"@type":"Event"}' } }),
      createElement("style", { key: "css", "data-href": "/styles.css", dangerouslySetInnerHTML: { __html: "body{margin:0}" } }),
    ];
    expect(renderToStaticMarkup(createElement(Fragment, null, ...components))).toContain('data-gatsby-head="true"');
    const html = renderToStaticMarkup(createElement(Fragment, null, ...withoutHeadMarkers(components)));
    expect(html).toBe(
      '<title>Book a meeting</title><meta name="description" content="Microtransit that lasts"/>' +
        '<script type="application/ld+json">{"@type":"Event"}</script><style data-href="/styles.css">body{margin:0}</style>',
    );
  });

  it("leaves components without the marker (and non-elements) as they are", () => {
    const style = createElement("style", { key: "css" }, "body{margin:0}");
    expect(withoutHeadMarkers([style, "text", null])).toEqual([style, "text", null]);
  });
});
