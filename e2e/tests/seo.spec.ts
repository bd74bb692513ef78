import type { APIRequestContext, Page } from "@playwright/test";
import { imageSize } from "image-size";
import { siteUrlFrom } from "../../build-time/site-url";
import { content, pictureDescriptions, squish } from "../support/content";
import { expect, test } from "../support/fixtures";
import { pageBootHasRun } from "../support/page-scripts";

// The build got the same environment as this process (tools/test-e2e.ts passes it through).
const SITE_URL = siteUrlFrom(process.env);

type Head = {
  lang: string | null;
  title: string;
  meta: Record<string, string>;
  links: Array<{ rel: string; href: string; type: string | null; sizes: string | null }>;
  jsonLd: unknown[];
};

/**
 * The <head> of a document as a crawler reads it: of the built HTML of a path when `html` is given
 * (parsed by the browser's own HTML parser, on a blank page: no script of the site runs), otherwise
 * of the page open in the browser, after its scripts ran.
 */
async function headOf(page: Page, html: string | null): Promise<Head> {
  return page.evaluate((source) => {
    const doc = source === null ? document : new DOMParser().parseFromString(source, "text/html");
    const meta: Record<string, string> = {};
    for (const element of Array.from(doc.head.querySelectorAll("meta[name], meta[property]"))) {
      meta[element.getAttribute("name") ?? element.getAttribute("property") ?? ""] =
        element.getAttribute("content") ?? "";
    }
    return {
      lang: doc.documentElement.getAttribute("lang"),
      title: doc.title,
      meta,
      links: Array.from(doc.head.querySelectorAll("link[rel]")).map((link) => ({
        rel: link.getAttribute("rel") ?? "",
        href: link.getAttribute("href") ?? "",
        type: link.getAttribute("type"),
        sizes: link.getAttribute("sizes"),
      })),
      jsonLd: Array.from(doc.querySelectorAll('script[type="application/ld+json"]')).map((script) =>
        JSON.parse(script.textContent ?? "null"),
      ),
    };
  }, html);
}

/** The <head> of the built HTML of a path, as a crawler that runs no JavaScript reads it. */
async function builtHead(page: Page, request: APIRequestContext, path: string): Promise<Head> {
  return headOf(page, await (await request.get(path)).text());
}

/** The head without the links a script loader may add (prefetch, preload, stylesheets): what search and sharing read. */
function seoTags(head: Head): Head {
  return {
    ...head,
    links: head.links.filter((link) => !/prefetch|preload|stylesheet/.test(link.rel)),
  };
}

async function fetchSiteUrl(request: APIRequestContext, absolute: string) {
  expect(absolute.startsWith(`${SITE_URL}/`), `${absolute} is under ${SITE_URL}`).toBe(true);
  return request.get(absolute.slice(SITE_URL.length));
}

test.describe("search and sharing", () => {
  test("the landing page's head: title, description, canonical, sharing cards, theme colour, icons", async ({
    page,
    request,
  }) => {
    const head = await builtHead(page, request, "/");
    expect(head.lang).toBe("en");
    expect(head.title).toContain(content.site.companyName);
    expect(head.title.length).toBeLessThanOrEqual(110);
    expect(head.meta.description).toBe(squish(content.site.description));
    expect(head.meta.viewport).toContain("width=device-width");
    expect(head.meta.robots ?? "").not.toContain("noindex");

    const canonical = head.links.find((link) => link.rel === "canonical")?.href;
    expect(canonical).toBe(`${SITE_URL}/`);

    expect(head.meta["og:type"]).toBe("website");
    expect(head.meta["og:title"]).toBe(head.title);
    expect(head.meta["og:description"]).toBe(head.meta.description);
    expect(head.meta["og:url"]).toBe(canonical);
    expect(head.meta["og:site_name"]).toBe(content.site.companyName);
    // The card is drawn from the content; its description follows the same facts ({placeholders} filled).
    expect(head.meta["og:image:alt"]).toBe(squish(pictureDescriptions.shareCard));
    expect(head.meta["og:image:alt"]).not.toMatch(/[{}]/);
    expect(head.meta["twitter:image:alt"]).toBe(head.meta["og:image:alt"]);
    expect(head.meta["twitter:card"]).toBe("summary_large_image");
    expect(head.meta["twitter:title"]).toBe(head.title);
    expect(head.meta["twitter:description"]).toBe(head.meta.description);
    expect(head.meta["twitter:image"]).toBe(head.meta["og:image"]);
    expect(head.meta["theme-color"]).toMatch(/^#[0-9a-f]{6}$/i);

    // The sharing image exists, is a 1200 × 630 PNG, and says so.
    const image = await fetchSiteUrl(request, head.meta["og:image"]!);
    expect(image.status()).toBe(200);
    expect(image.headers()["content-type"]).toBe("image/png");
    const size = imageSize(await image.body());
    expect(size).toMatchObject({ type: "png", width: 1200, height: 630 });
    expect(head.meta["og:image:width"]).toBe(String(size.width));
    expect(head.meta["og:image:height"]).toBe(String(size.height));

    // Every icon link resolves.
    const icons = head.links.filter((link) => /icon/.test(link.rel));
    expect(icons.length).toBeGreaterThanOrEqual(1);
    for (const icon of icons) {
      const response = await request.get(icon.href);
      expect(response.status(), icon.href).toBe(200);
      expect(response.headers()["content-type"], icon.href).toMatch(/^image\//);
    }
  });

  test("JSON-LD describes the provider (founding year, contact point) and the expo meeting at the booth", async ({
    page,
    request,
  }) => {
    const { jsonLd } = await builtHead(page, request, "/");
    const nodes = jsonLd.flatMap((entry) => {
      const value = entry as Record<string, unknown>;
      return Array.isArray(value["@graph"])
        ? (value["@graph"] as Record<string, unknown>[])
        : [value];
    });
    const organization = nodes.find((node) => node["@type"] === "Organization");
    const event = nodes.find(
      (node) =>
        node["@type"] === "Event" ||
        (Array.isArray(node["@type"]) && node["@type"].includes("Event")),
    );
    expect(organization, JSON.stringify(jsonLd)).toBeTruthy();
    expect(event, JSON.stringify(jsonLd)).toBeTruthy();

    expect(organization).toMatchObject({
      name: content.site.companyName,
      foundingDate: String(content.site.history.established),
    });
    expect(organization!.contactPoint).toMatchObject({ "@type": "ContactPoint" });
    const contactPoint = organization!.contactPoint as Record<string, string>;
    expect(contactPoint.telephone ?? contactPoint.email).toBeTruthy();

    expect(JSON.stringify(event)).toContain(content.expo.booth);
    expect(event!.startDate).toMatch(/^\d{4}-\d{2}-\d{2}/);
    expect(event!.location).toMatchObject({ "@type": "Place" });
    for (const node of [organization, event])
      expect(node!["@context"] ?? (jsonLd[0] as Record<string, unknown>)["@context"]).toMatch(
        /schema\.org/,
      );
  });

  // The head is written into the HTML at build time: the page's scripts must leave it alone, also
  // after an in-page link.
  test("a crawler that runs the page's JavaScript sees the same head, also after an in-page link", async ({
    page,
    request,
  }) => {
    const built = await builtHead(page, request, "/");
    await page.goto("/");
    await pageBootHasRun(page);
    expect(seoTags(await headOf(page, null))).toEqual(seoTags(built));

    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter"); // the skip link: a change of location
    await expect(page).toHaveURL(/#main$/);
    await page.waitForTimeout(300);
    expect(seoTags(await headOf(page, null))).toEqual(seoTags(built));
    expect(built.jsonLd).toHaveLength(2);
  });

  test("the not-found page keeps its head too once its scripts ran", async ({
    page,
    request,
    diagnostics,
  }) => {
    diagnostics.allowErrors(/status of 404/, /404 Error: /);
    const built = await builtHead(page, request, "/some/missing/path");
    await page.goto("/some/missing/path");
    await pageBootHasRun(page);
    await page.waitForTimeout(300);
    expect(seoTags(await headOf(page, null))).toEqual(seoTags(built));
    expect(built.meta.robots).toMatch(/noindex/);
  });

  test("the not-found page is not indexed and still has a title", async ({ page, request }) => {
    const head = await builtHead(page, request, "/some/missing/path");
    expect(head.meta.robots).toMatch(/noindex/);
    expect(head.title).toMatch(/not found/i);
    expect(head.lang).toBe("en");
  });

  test("the sitemap lists the landing page (and not the 404 page); robots.txt points to it", async ({
    request,
  }) => {
    const locations = async (path: string): Promise<string[]> => {
      const response = await request.get(path);
      expect(response.status(), path).toBe(200);
      expect(response.headers()["content-type"], path).toMatch(/xml/);
      return [...(await response.text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map(
        (match) => match[1]!,
      );
    };
    // gatsby-plugin-sitemap writes an index that names the sitemaps themselves.
    const sitemaps = await locations("/sitemap-index.xml");
    expect(sitemaps.length).toBeGreaterThan(0);
    const pages = (
      await Promise.all(sitemaps.map((sitemap) => locations(new URL(sitemap).pathname)))
    ).flat();
    for (const sitemap of sitemaps) expect(sitemap.startsWith(`${SITE_URL}/`), sitemap).toBe(true);
    expect(pages).toContain(`${SITE_URL}/`);
    expect(pages.filter((location) => /404/.test(location))).toEqual([]);

    const robots = await request.get("/robots.txt");
    expect(robots.status()).toBe(200);
    const text = await robots.text();
    expect(text).toMatch(/^User-agent: \*/m);
    expect(text).not.toMatch(/^Disallow: \/\s*$/m);
    expect(text).toContain(`Sitemap: ${SITE_URL}/sitemap-index.xml`);
  });
});
