/**
 * Search and sharing: the head of the built HTML as a crawler reads it (title, description,
 * canonical, sharing card, icons, JSON-LD), the same head once the page's scripts ran, the
 * sitemap and robots.txt.
 */
import type { APIRequestContext, Page } from "@playwright/test";
import { imageSize } from "image-size";
import { siteUrlFrom } from "../../build-time/site-url";
import { content, pictureDescriptions, squish } from "../support/content";
import { expect, test } from "../support/fixtures";
import { pageBootHasRun } from "../support/page";

// The build got the same environment as this process (tools/test-e2e.ts passes it through).
const SITE_URL = siteUrlFrom(process.env);

type Head = Awaited<ReturnType<typeof headOf>>;

/**
 * The <head> of `html` as a crawler that runs no script reads it (parsed by the browser's own
 * parser on a blank document), or with `html` null, of the page open in the browser.
 */
function headOf(page: Page, html: string | null) {
  return page.evaluate((source) => {
    const doc = source === null ? document : new DOMParser().parseFromString(source, "text/html");
    const elements = (selector: string) => Array.from(doc.querySelectorAll(selector));
    return {
      lang: doc.documentElement.getAttribute("lang"),
      title: doc.title,
      meta: Object.fromEntries(
        elements("head meta[name], head meta[property]").map((meta) => [
          meta.getAttribute("name") ?? meta.getAttribute("property") ?? "",
          meta.getAttribute("content") ?? "",
        ]),
      ),
      links: elements("head link[rel]").map((link) => ({
        rel: link.getAttribute("rel") ?? "",
        href: link.getAttribute("href") ?? "",
        type: link.getAttribute("type"),
        sizes: link.getAttribute("sizes"),
      })),
      jsonLd: elements('script[type="application/ld+json"]').map(
        (script) => JSON.parse(script.textContent ?? "null") as Record<string, unknown>,
      ),
    };
  }, html);
}

async function builtHead(page: Page, request: APIRequestContext, path: string): Promise<Head> {
  return headOf(page, await (await request.get(path)).text());
}

/** The head without what a script loader may add (prefetch, preload, stylesheets): what search and sharing read. */
function seoTags(head: Head): Head {
  return {
    ...head,
    links: head.links.filter((link) => !/prefetch|preload|stylesheet/.test(link.rel)),
  };
}

test("the landing page's head: title, description, canonical, sharing cards, theme colour, icons, and JSON-LD for the provider and the expo meeting", async ({
  page,
  request,
}) => {
  const { lang, title, meta, links, jsonLd } = await builtHead(page, request, "/");
  expect(lang).toBe("en");
  expect(title).toContain(content.site.companyName);
  expect(title.length).toBeLessThanOrEqual(110);
  expect(meta.robots ?? "").not.toContain("noindex");
  const canonical = links.find((link) => link.rel === "canonical")?.href;
  expect(canonical).toBe(`${SITE_URL}/`);
  expect(meta).toMatchObject({
    description: squish(content.site.description),
    viewport: expect.stringContaining("width=device-width"),
    "og:type": "website",
    "og:title": title,
    "og:description": squish(content.site.description),
    "og:url": canonical,
    "og:site_name": content.site.companyName,
    // The card is drawn from the content; its description follows the same facts ({placeholders} filled).
    "og:image:alt": squish(pictureDescriptions.shareCard),
    "twitter:image:alt": squish(pictureDescriptions.shareCard),
    "twitter:card": "summary_large_image",
    "twitter:title": title,
    "twitter:description": squish(content.site.description),
    "twitter:image": meta["og:image"],
    "theme-color": expect.stringMatching(/^#[0-9a-f]{6}$/i),
  });
  expect(meta["og:image:alt"]).not.toMatch(/[{}]/);

  // The sharing image exists, is a 1200 × 630 PNG, and says so.
  expect(meta["og:image"]!.startsWith(`${SITE_URL}/`), meta["og:image"]).toBe(true);
  const image = await request.get(meta["og:image"]!.slice(SITE_URL.length));
  expect(image.status()).toBe(200);
  expect(image.headers()["content-type"]).toBe("image/png");
  expect(imageSize(await image.body())).toMatchObject({ type: "png", width: 1200, height: 630 });
  expect([meta["og:image:width"], meta["og:image:height"]]).toEqual(["1200", "630"]);

  // Every icon link resolves.
  const icons = links.filter((link) => /icon/.test(link.rel));
  expect(icons.length).toBeGreaterThanOrEqual(1);
  for (const icon of icons) {
    const response = await request.get(icon.href);
    expect(response.status(), icon.href).toBe(200);
    expect(response.headers()["content-type"], icon.href).toMatch(/^image\//);
  }

  // JSON-LD from the content: its shape is unit-tested in src/lib/structured-data.test.ts.
  const nodes = jsonLd.flatMap((entry) =>
    Array.isArray(entry["@graph"]) ? (entry["@graph"] as Record<string, unknown>[]) : [entry],
  );
  expect(nodes.find((node) => node["@type"] === "Organization")).toMatchObject({
    name: content.site.companyName,
    foundingDate: String(content.site.history.established),
  });
  const event = nodes.find((node) => [node["@type"]].flat().includes("Event"));
  expect(JSON.stringify(event)).toContain(content.expo.booth);
  expect(jsonLd[0]!["@context"]).toMatch(/schema\.org/);
});

// The head is written into the HTML at build time: the page's scripts must leave it alone. (The
// not-found page's title and noindex: not-found.spec.ts.)
for (const path of ["/", "/some/missing/path"]) {
  test(`${path}: a crawler that runs the page's JavaScript sees the built head, also after an in-page link`, async ({
    page,
    request,
    diagnostics,
  }) => {
    diagnostics.allowErrors(/status of 404/, /404 Error: /);
    const built = await builtHead(page, request, path);
    expect(built.lang).toBe("en");
    expect(built.jsonLd).toHaveLength(path === "/" ? 2 : 0);
    await page.goto(path);
    await pageBootHasRun(page);
    await page.waitForTimeout(300);
    expect(seoTags(await headOf(page, null))).toEqual(seoTags(built));

    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter"); // the skip link: a change of location
    await expect(page).toHaveURL(/#main$/);
    await page.waitForTimeout(300);
    expect(seoTags(await headOf(page, null))).toEqual(seoTags(built));
  });
}

test("the sitemap lists the landing page (and not the 404 page); robots.txt points to it", async ({
  request,
}) => {
  const locations = async (path: string): Promise<string[]> => {
    const response = await request.get(path);
    expect(response.status(), path).toBe(200);
    expect(response.headers()["content-type"], path).toMatch(/xml/);
    return [...(await response.text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]!);
  };
  // gatsby-plugin-sitemap writes an index that names the sitemaps themselves.
  const sitemaps = await locations("/sitemap-index.xml");
  expect(sitemaps.length).toBeGreaterThan(0);
  for (const sitemap of sitemaps) expect(sitemap.startsWith(`${SITE_URL}/`), sitemap).toBe(true);
  const pages = (
    await Promise.all(sitemaps.map((sitemap) => locations(new URL(sitemap).pathname)))
  ).flat();
  expect(pages).toContain(`${SITE_URL}/`);
  expect(pages.filter((location) => /404/.test(location))).toEqual([]);

  const robots = await request.get("/robots.txt");
  expect(robots.status()).toBe(200);
  const text = await robots.text();
  expect(text).toMatch(/^User-agent: \*/m);
  expect(text).not.toMatch(/^Disallow: \/\s*$/m);
  expect(text).toContain(`Sitemap: ${SITE_URL}/sitemap-index.xml`);
});
