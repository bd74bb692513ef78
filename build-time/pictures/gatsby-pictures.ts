/**
 * The pictures drawn from the content (src/lib/pictures) in Gatsby's life cycle: drawn before
 * sourcing from the checked content and rasterised with sharp (the SVGs hold outlines, so librsvg
 * needs no fonts), redrawn after a save that changes a drawn fact, and their descriptions'
 * {placeholders} filled from the content nodes (resolvers).
 */
import fs from "node:fs";
import path from "node:path";
import type { CreateResolversArgs, Reporter } from "gatsby";
import sharp from "sharp";
import {
  MEETING_ILLUSTRATION,
  meetingIllustrationSvg,
} from "../../src/lib/pictures/meeting-illustration";
import {
  fillPlaceholders,
  pictureFacts,
  type PictureContent,
  type PictureFacts,
} from "../../src/lib/pictures/picture-facts";
import { SHARE_CARD, shareCardSvg } from "../../src/lib/pictures/share-card";
import { DRAWN_PICTURES, DRAWN_PICTURES_DIR } from "./drawn-pictures";
import { glyphAtlas } from "./font-atlas";

function writeIfChanged(file: string, bytes: Buffer | string, changed: string[]): void {
  const next = Buffer.from(bytes);
  if (fs.existsSync(file) && fs.readFileSync(file).equals(next)) return;
  fs.writeFileSync(file, next);
  changed.push(file);
}

/** Draws both pictures for `facts` into `outDir`; returns the files written. */
export async function drawPictures(facts: PictureFacts, outDir = DRAWN_PICTURES_DIR) {
  fs.mkdirSync(outDir, { recursive: true });
  const atlas = glyphAtlas();
  const { publishedWidth: width, publishedHeight: height } = MEETING_ILLUSTRATION;
  const { shareCard, meetingIllustration } = DRAWN_PICTURES;
  const drawings = [
    [shareCard.fileName, shareCardSvg(facts, atlas), SHARE_CARD],
    [meetingIllustration.fileName, meetingIllustrationSvg(facts, atlas), { width, height }],
  ] as const;
  const changed: string[] = [];
  for (const [fileName, svg, size] of drawings) {
    const pngFile = path.join(outDir, fileName);
    // Rendered at the published size (density scales the SVG's 96 dpi), so no resampling blurs the text.
    const density = (96 * size.width) / Number(/width="(\d+)"/.exec(svg)?.[1] ?? size.width);
    const png = await sharp(Buffer.from(svg), { density })
      .resize(size.width, size.height)
      .png({ compressionLevel: 9 })
      .toBuffer();
    writeIfChanged(pngFile.replace(/\.png$/, ".svg"), svg, changed);
    writeIfChanged(pngFile, png, changed);
  }
  return {
    shareCard: path.join(outDir, shareCard.fileName),
    meetingIllustration: path.join(outDir, meetingIllustration.fileName),
    changed,
  };
}

/** Draws from the checked content now, or soon after a save; never twice for the same facts. */
export function createPictureDrawer(
  content: (name: string) => Record<string, unknown> | undefined,
  outDir = DRAWN_PICTURES_DIR,
) {
  let lastDrawn: string | undefined;
  let pending: NodeJS.Timeout | undefined;

  async function draw(reporter: Pick<Reporter, "info">): Promise<void> {
    // The folder must exist for gatsby-source-filesystem even while the content has errors.
    fs.mkdirSync(outDir, { recursive: true });
    const [site, hero, expo, contact] = ["site", "hero", "expo", "contact"].map(content);
    if (!site || !hero || !expo || !contact) return;
    // The content check has validated these shapes against the content model.
    const facts = pictureFacts({ site, hero, expo, contact } as unknown as PictureContent);
    if (JSON.stringify(facts) === lastDrawn) return;
    const started = Date.now();
    const { changed } = await drawPictures(facts, outDir);
    lastDrawn = JSON.stringify(facts);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    reporter.info(
      `${changed.length > 0 ? "Drew" : "Checked"} the sharing card and the meeting illustration from the content in ${seconds} s.`,
    );
  }

  return {
    draw,
    drawSoon(reporter: Pick<Reporter, "info" | "warn">): void {
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

function describedBy(field: string) {
  return {
    async resolve(
      source: Record<string, unknown>,
      _args: unknown,
      context: { nodeModel: NodeModel },
    ) {
      const [site, hero, expo, contact] = await Promise.all(
        ["SiteContent", "HeroContent", "ExpoContent", "ContactContent"].map((type) =>
          context.nodeModel.findOne({ type, query: {} }),
        ),
      );
      if (!site || !hero || !expo || !contact)
        throw new Error(
          "The pictures' descriptions need the site, hero, expo and contact content.",
        );
      const facts = pictureFacts({ site, hero, expo, contact } as PictureContent);
      return fillPlaceholders(String(source[field] ?? ""), facts);
    },
  };
}

/** createResolvers: the two picture descriptions with their {placeholders} filled. */
export function pictureDescriptionResolvers({ createResolvers }: CreateResolversArgs): void {
  createResolvers({
    SiteContent: { shareImageAlt: describedBy("shareImageAlt") },
    MeetingContent: { imageAlt: describedBy("imageAlt") },
  });
}
