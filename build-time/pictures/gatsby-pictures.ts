/**
 * The drawn pictures in Gatsby's life cycle (wired from gatsby-node.ts):
 * - before sourcing, both pictures are drawn from the content as it is on disk;
 * - in `gatsby develop`, a saved content file redraws them (only when a drawn fact changed), and
 *   gatsby-source-filesystem's watcher hands the new picture to gatsby-transformer-sharp;
 * - the pictures' descriptions (alt texts) fill their {placeholders} with the same facts, read
 *   from the content nodes when a page is queried, so they follow the content like the pictures.
 */
import fs from "node:fs";
import path from "node:path";
import type { CreateResolversArgs, Node, Reporter } from "gatsby";
import { fillPlaceholders, pictureFacts, type PictureContent } from "../../src/lib/pictures/picture-facts";
import { drawPictures, factsFromFolder } from "./draw-pictures";
import { DRAWN_PICTURES_DIR } from "./drawn-pictures";

const CONTENT_DIR = path.resolve("content");
let lastDrawn: string | undefined;

async function drawFromContent(reporter: Pick<Reporter, "info">): Promise<void> {
  // The folder must exist for gatsby-source-filesystem even while the content has errors.
  fs.mkdirSync(DRAWN_PICTURES_DIR, { recursive: true });
  const facts = factsFromFolder(CONTENT_DIR);
  if (!facts) return;
  const key = JSON.stringify(facts);
  if (key === lastDrawn) return;
  const started = Date.now();
  const drawn = await drawPictures(facts);
  lastDrawn = key;
  const what = drawn.changed.length > 0 ? "Drew" : "Checked";
  reporter.info(`${what} the sharing card and the meeting illustration from the content in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}

/** onPreBootstrap: draw before gatsby-source-filesystem reads the folder. */
export async function drawPicturesBeforeSourcing({ reporter }: { reporter: Reporter }): Promise<void> {
  await drawFromContent(reporter);
}

let pending: NodeJS.Timeout | undefined;

/** onCreateNode: a content YAML file (re)read in develop redraws the pictures shortly after. */
export function redrawOnContentChange({ node, reporter }: { node: Node; reporter: Reporter }): void {
  const file = node as Node & { absolutePath?: string; extension?: string };
  if (node.internal.type !== "File" || file.extension !== "yaml" || path.dirname(file.absolutePath ?? "") !== CONTENT_DIR) return;
  clearTimeout(pending);
  pending = setTimeout(() => {
    drawFromContent(reporter).catch((error: unknown) => reporter.warn(`The pictures could not be redrawn: ${error instanceof Error ? error.message : String(error)}`));
  }, 200);
}

type NodeModel = { findOne(args: { type: string; query: object }): Promise<unknown> };

async function factsFromNodes(nodeModel: NodeModel) {
  const [site, hero, expo, contact] = await Promise.all(
    ["SiteContent", "HeroContent", "ExpoContent", "ContactContent"].map((type) => nodeModel.findOne({ type, query: {} })),
  );
  if (!site || !hero || !expo || !contact) throw new Error("The pictures' descriptions need the site, hero, expo and contact content.");
  return pictureFacts({ site, hero, expo, contact } as PictureContent);
}

function altResolver(field: string) {
  return {
    resolve: async (source: Record<string, unknown>, _args: unknown, context: { nodeModel: NodeModel }) =>
      fillPlaceholders(String(source[field] ?? ""), await factsFromNodes(context.nodeModel)),
  };
}

/** createResolvers: the two picture descriptions with their {placeholders} filled. */
export function pictureDescriptionResolvers({ createResolvers }: CreateResolversArgs): void {
  createResolvers({
    SiteContent: { shareImageAlt: altResolver("shareImageAlt") },
    MeetingContent: { imageAlt: altResolver("imageAlt") },
  });
}
