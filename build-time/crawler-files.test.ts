import { buildRobotsTxt, buildSitemap, isIndexablePath } from "./crawler-files";

describe("crawler files", () => {
  it("lists only indexable pages in the sitemap, once each", () => {
    const sitemap = buildSitemap("https://expo.example.com", ["/", "/404/", "/404.html", "/dev-404-page/", "/"]);
    expect(sitemap).toContain("<loc>https://expo.example.com/</loc>");
    expect(sitemap.match(/<loc>/g)).toHaveLength(1);
    expect(sitemap).not.toContain("404");
  });

  it("points robots.txt at the sitemap", () => {
    expect(buildRobotsTxt("https://expo.example.com")).toContain("Sitemap: https://expo.example.com/sitemap.xml");
  });

  it("treats the not-found pages as not indexable", () => {
    expect(isIndexablePath("/404/")).toBe(false);
    expect(isIndexablePath("/404.html")).toBe(false);
    expect(isIndexablePath("/404-solutions/")).toBe(true);
  });
});
