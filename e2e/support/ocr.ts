/**
 * Reads the text of a picture with Debian's tesseract-ocr (apt-get install tesseract-ocr; .ci/run
 * installs it): the independent check that a drawn picture shows what its SVG source says.
 */
import { execFileSync } from "node:child_process";
import sharp from "sharp";

import type { LineBox } from "../../src/lib/pictures/draw-text";

/** Tesseract's reading of a PNG, with its whitespace collapsed. `psm` 7 reads a single line. */
export function ocr(png: Buffer, psm = 3): string {
  const text = execFileSync("tesseract", ["stdin", "stdout", "--psm", String(psm)], {
    input: png,
    stdio: ["pipe", "pipe", "ignore"],
  }).toString("utf8");
  return text.replace(/\s+/g, " ").trim();
}

/** Reads one line of a picture: `box` in the SVG's units, `scale` from them to the picture's pixels. */
export async function ocrLine(
  png: Buffer,
  box: LineBox,
  scale: number,
  margin = 8,
): Promise<string> {
  const { width = 0, height = 0 } = await sharp(png).metadata();
  const left = Math.max(0, Math.floor((box.left - margin) * scale));
  const top = Math.max(0, Math.floor((box.top - margin) * scale));
  const crop = {
    left,
    top,
    width: Math.min(width - left, Math.ceil((box.right - box.left + 2 * margin) * scale)),
    height: Math.min(height - top, Math.ceil((box.bottom - box.top + 2 * margin) * scale)),
  };
  return ocr(await sharp(png).extract(crop).png().toBuffer(), 7);
}
