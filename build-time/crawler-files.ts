/** robots.txt and sitemap.xml for the built site. */

export function isIndexablePath(pagePath: string): boolean {
  return !/^\/(404|dev-404-page)(\/|\.html|$)/.test(pagePath);
}

export function buildSitemap(siteUrl: string, pagePaths: readonly string[]): string {
  const urls = [...new Set(pagePaths.filter(isIndexablePath))]
    .sort()
    .map((pagePath) => `  <url><loc>${escapeXml(siteUrl + pagePath)}</loc></url>`);
  return ['<?xml version="1.0" encoding="UTF-8"?>', '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">', ...urls, "</urlset>", ""].join("\n");
}

export function buildRobotsTxt(siteUrl: string): string {
  return ["User-agent: *", "Allow: /", "", `Sitemap: ${siteUrl}/sitemap.xml`, ""].join("\n");
}

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");
}
