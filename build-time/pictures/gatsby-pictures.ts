/**
 * The drawn pictures in Gatsby's life cycle, wired from plugins/content-yaml (which checks the
 * content) and gatsby-node.ts (the resolvers):
 * - before sourcing, both pictures are drawn from the content the check has just read;
 * - in `gatsby develop`, a saved content file redraws them once a drawn fact changed, and
 *   gatsby-source-filesystem's watcher hands the new picture to gatsby-transformer-sharp;
 * - the pictures' descriptions (alt texts) fill their {placeholders} with the same facts, read
 *   from the content nodes when a page is queried, so they follow the content like the pictures.
 */
import fs from "node:fs";
import type { CreateResolversArgs, Reporter } from "gatsby";
import {
  fillPlaceholders,
  pictureFacts,
  type PictureContent,
  type PictureFacts,
} from "../../src/lib/pictures/picture-facts";
import { drawPictures } from "./draw-pictures";
import { DRAWN_PICTURES_DIR } from "./drawn-pictures";

/** The checked data of a content file by name ("hero"), as the content pipeline last passed it. */
export type CheckedContent = (name: string) => Record<string, unknown> | undefined;

function factsFrom(content: CheckedContent): PictureFacts | undefined {
  const [site, hero, expo, contact] = ["site", "hero", "expo", "contact"].map(content);
  if (!site || !hero || !expo || !contact) return undefined;
  // The content check has validated these shapes against the content model.
  return pictureFacts({ site, hero, expo, contact } as unknown as PictureContent);
}

export type PictureDrawer = {
  /** Draws now (onPreBootstrap, before gatsby-source-filesystem reads the folder). */
  draw(reporter: Pick<Reporter, "info">): Promise<void>;
  /** Draws shortly after a content file was (re)read, once the saves have settled (develop). */
  drawSoon(reporter: Pick<Reporter, "info" | "warn">): void;
};

export function createPictureDrawer(
  content: CheckedContent,
  outDir: string = DRAWN_PICTURES_DIR,
): PictureDrawer {
  let lastDrawn: string | undefined;
  let pending: NodeJS.Timeout | undefined;

  async function draw(reporter: Pick<Reporter, "info">): Promise<void> {
    // The folder must exist for gatsby-source-filesystem even while the content has errors.
    fs.mkdirSync(outDir, { recursive: true });
    const facts = factsFrom(content);
    const key = JSON.stringify(facts);
    if (!facts || key === lastDrawn) return;
    const started = Date.now();
    const drawn = await drawPictures(facts, outDir);
    lastDrawn = key;
    const verb = drawn.changed.length > 0 ? "Drew" : "Checked";
    reporter.info(
      `${verb} the sharing card and the meeting illustration from the content in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
    );
  }

  return {
    draw,
    drawSoon(reporter) {
      clearTimeout(pending);
      pending = setTimeout(() => {
        draw(reporter).catch((error: unknown) =>
          reporter.warn(
            `The pictures could not be redrawn: ${error instanceof Error ? error.message : String(error)}`,
          ),
        );
      }, 200);
      pending.unref();
    },
  };
}

type NodeModel = { findOne(args: { type: string; query: object }): Promise<unknown> };

async function factsFromNodes(nodeModel: NodeModel): Promise<PictureFacts> {
  const [site, hero, expo, contact] = await Promise.all(
    ["SiteContent", "HeroContent", "ExpoContent", "ContactContent"].map((type) =>
      nodeModel.findOne({ type, query: {} }),
    ),
  );
  if (!site || !hero || !expo || !contact)
    throw new Error("The pictures' descriptions need the site, hero, expo and contact content.");
  return pictureFacts({ site, hero, expo, contact } as PictureContent);
}

function describedBy(field: string) {
  return {
    resolve: async (
      source: Record<string, unknown>,
      _args: unknown,
      context: { nodeModel: NodeModel },
    ) => fillPlaceholders(String(source[field] ?? ""), await factsFromNodes(context.nodeModel)),
  };
}

/** createResolvers: the two picture descriptions with their {placeholders} filled. */
export function pictureDescriptionResolvers({ createResolvers }: CreateResolversArgs): void {
  createResolvers({
    SiteContent: { shareImageAlt: describedBy("shareImageAlt") },
    MeetingContent: { imageAlt: describedBy("imageAlt") },
  });
}
