/**
 * Draws the sharing card and the meeting illustration from the content (src/lib/pictures) and
 * rasterises them with sharp: the SVG has no text elements, only outlines (font-atlas.ts), so
 * librsvg needs no fonts. Written to DRAWN_PICTURES_DIR before Gatsby sources files, with each
 * picture's SVG source beside it; a picture whose bytes did not change is not rewritten.
 */
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import {
  meetingIllustrationSvg,
  MEETING_ILLUSTRATION,
} from "../../src/lib/pictures/meeting-illustration";
import type { PictureFacts } from "../../src/lib/pictures/picture-facts";
import { SHARE_CARD, shareCardSvg } from "../../src/lib/pictures/share-card";
import { DRAWN_PICTURES, DRAWN_PICTURES_DIR } from "./drawn-pictures";
import { glyphAtlas } from "./font-atlas";

function writeIfChanged(file: string, bytes: Buffer | string): boolean {
  const next = Buffer.from(bytes);
  if (fs.existsSync(file) && fs.readFileSync(file).equals(next)) return false;
  fs.writeFileSync(file, next);
  return true;
}

export type DrawnFiles = { shareCard: string; meetingIllustration: string; changed: string[] };

/** Draws both pictures for `facts` into `outDir` (PNG, and the SVG it was made from). */
export async function drawPictures(
  facts: PictureFacts,
  outDir: string = DRAWN_PICTURES_DIR,
): Promise<DrawnFiles> {
  fs.mkdirSync(outDir, { recursive: true });
  const atlas = glyphAtlas();
  const drawings = [
    { picture: DRAWN_PICTURES.shareCard, svg: shareCardSvg(facts, atlas), size: SHARE_CARD },
    {
      picture: DRAWN_PICTURES.meetingIllustration,
      svg: meetingIllustrationSvg(facts, atlas),
      size: {
        width: MEETING_ILLUSTRATION.publishedWidth,
        height: MEETING_ILLUSTRATION.publishedHeight,
      },
    },
  ];
  const changed: string[] = [];
  for (const { picture, svg, size } of drawings) {
    const pngFile = path.join(outDir, picture.fileName);
    const svgFile = pngFile.replace(/\.png$/, ".svg");
    // Rendered at the published size (density scales the SVG's 96 dpi), so no resampling blurs the text.
    const density = (96 * size.width) / Number(/width="(\d+)"/.exec(svg)?.[1] ?? size.width);
    const png = await sharp(Buffer.from(svg), { density })
      .resize(size.width, size.height)
      .png({ compressionLevel: 9 })
      .toBuffer();
    if (writeIfChanged(svgFile, svg)) changed.push(svgFile);
    if (writeIfChanged(pngFile, png)) changed.push(pngFile);
  }
  return {
    shareCard: path.join(outDir, DRAWN_PICTURES.shareCard.fileName),
    meetingIllustration: path.join(outDir, DRAWN_PICTURES.meetingIllustration.fileName),
    changed,
  };
}
