import fs from "node:fs";
import path from "node:path";
import yaml from "js-yaml";

const contentDir = path.resolve(__dirname, "../../content");

export function loadContentFile(name: string): Record<string, unknown> {
  const parsed: unknown = yaml.load(fs.readFileSync(path.join(contentDir, `${name}.yaml`), "utf8"));
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error(`content/${name}.yaml is not one object`);
  return parsed as Record<string, unknown>;
}

/**
 * The real content/ files shaped like the index page's query result, so page tests render
 * what the build would render (images excepted: sharp does not run in tests).
 */
export function indexPageDataFromContent(): Queries.IndexPageQuery {
  const site = loadContentFile("site");
  const meeting = loadContentFile("meeting");
  return {
    site: { buildTime: "2025", siteMetadata: { siteUrl: "https://expo.example.com" } },
    siteContent: { ...site, shareImage: { publicURL: "/static/share-card.png" } },
    heroContent: loadContentFile("hero"),
    solutionsContent: loadContentFile("solutions"),
    consultingContent: loadContentFile("consulting"),
    expoContent: loadContentFile("expo"),
    meetingContent: { ...meeting, image: { childImageSharp: null } },
    contactContent: loadContentFile("contact"),
    footerContent: loadContentFile("footer"),
  } as unknown as Queries.IndexPageQuery;
}
