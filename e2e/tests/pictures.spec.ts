/**
 * Next year's expo by content alone, pictures included: a copy of content/ with a new booth,
 * event name and year (nothing else touched) is built with `gatsby build`, and the built site's
 * pictures show the new values and none of the old. Read back twice: from the SVG source each
 * picture was rasterised from, and by OCR of the published pictures (the independent check that
 * a drawn picture shows what its SVG source says).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import { execFileSync } from "node:child_process";
import sharp from "sharp";
import { DRAWN_PICTURES } from "../../build-time/pictures/drawn-pictures";
import { drawnLineBoxes, drawnLines, type LineBox } from "../../src/lib/pictures/draw-text";
import { visitContentBuild } from "../../tools/lib/content-build";
import { PROJECT_ROOT } from "../../tools/lib/test-build";
import { content, squish } from "../support/content";
import { expect, test } from "../support/fixtures";

const { booth, venue, eventName, startDate, endDate } = content.expo;
const OLD = { booth, year: startDate.slice(0, 4) };
const NEW = { booth: "512", year: String(Number(OLD.year) + 1) };
const NEW_EVENT_NAME = eventName.replace(OLD.year, NEW.year);
const BOOTH_LABEL = content.contact.labels.booth;

/** `content/` with the booth, the event name and the year changed, as an editor would change them. */
function nextYearsContent(): string {
  const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "next-year-")), "content");
  fs.cpSync(path.join(PROJECT_ROOT, "content"), dir, { recursive: true });
  const nextYear = (date: string) => `"${NEW.year}${date.slice(4)}"`;
  const edits: Record<string, [RegExp, string][]> = {
    expo: [
      [/^eventName: .*$/m, `eventName: ${NEW_EVENT_NAME}`],
      [/^booth: .*$/m, `booth: "${NEW.booth}"`],
      [/^startDate: .*$/m, `startDate: ${nextYear(startDate)}`],
      [/^endDate: .*$/m, `endDate: ${nextYear(endDate)}`],
    ],
    contact: [[/^booth: .*$/m, `booth: "${NEW.booth}"`]],
  };
  for (const [name, replacements] of Object.entries(edits)) {
    const file = path.join(dir, `${name}.yaml`);
    let text = fs.readFileSync(file, "utf8");
    for (const [pattern, replacement] of replacements) {
      expect(text, `${name}.yaml ${String(pattern)}`).toMatch(pattern);
      text = text.replace(pattern, replacement);
    }
    fs.writeFileSync(file, text);
  }
  return dir;
}

/** Tesseract's reading of a PNG (tesseract-ocr, installed by .ci/run); `psm` 7 reads one line. */
function ocr(png: Buffer, psm = 3): string {
  const text = execFileSync("tesseract", ["stdin", "stdout", "--psm", String(psm)], {
    input: png,
    stdio: ["pipe", "pipe", "ignore"],
  }).toString("utf8");
  return text.replace(/\s+/g, " ").trim();
}

/** Reads one line of a picture: `box` in the SVG's units, `scale` from them to the picture's pixels. */
async function ocrLine(png: Buffer, box: LineBox, scale: number): Promise<string> {
  const margin = 8;
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

async function pictureBytes(page: Page, baseUrl: string, url: string): Promise<Buffer> {
  const response = await page.request.get(new URL(new URL(url, baseUrl).pathname, baseUrl).href);
  expect(response.status(), url).toBe(200);
  return Buffer.from(await response.body());
}

test("a new booth, event name and year in the content alone: the built sharing card and meeting illustration show them, and nothing of the old", async ({
  page,
  backend,
}) => {
  // Two cold builds run in the e2e suite; on a loaded 2-core machine one took 4.5 min.
  test.setTimeout(600_000);
  const contentDir = nextYearsContent();
  try {
    await visitContentBuild(contentDir, backend.url, (siteUrl, publicDir) =>
      checkPictures(page, siteUrl, publicDir),
    );
  } finally {
    fs.rmSync(path.dirname(contentDir), { recursive: true, force: true });
  }
});

/** The built site's pictures: their SVG sources, then what OCR reads in the published PNGs. */
async function checkPictures(page: Page, siteUrl: string, publicDir: string): Promise<void> {
  // 1. The SVG source each picture was rasterised from (written beside it by the build).
  const svgOf = (fileName: string) =>
    fs.readFileSync(
      path.join(publicDir, "../.drawn-pictures", fileName.replace(/\.png$/, ".svg")),
      "utf8",
    );
  const cardSvg = svgOf(DRAWN_PICTURES.shareCard.fileName);
  const illustrationSvg = svgOf(DRAWN_PICTURES.meetingIllustration.fileName);
  const cardLines = drawnLines(cardSvg).join("\n");
  expect(drawnLines(cardSvg)[0]).toBe(`${NEW_EVENT_NAME} · ${BOOTH_LABEL} #${NEW.booth}`);
  expect(drawnLines(cardSvg).join(" ")).toContain(squish(content.hero.headline));
  expect(cardLines).toMatch(new RegExp(`\\b${NEW.year} · ${venue.city}`));
  expect(drawnLines(illustrationSvg)).toContain(`${BOOTH_LABEL.toUpperCase()} ${NEW.booth}`);
  for (const lines of [cardLines, drawnLines(illustrationSvg).join("\n")]) {
    expect(lines).not.toContain(OLD.booth);
    expect(lines).not.toContain(OLD.year);
  }

  // 2. The pictures the built page publishes, read by OCR.
  await page.goto(`${siteUrl}/`);
  const cardUrl = await page.locator('meta[property="og:image"]').getAttribute("content");
  const cardAlt = await page.locator('meta[property="og:image:alt"]').getAttribute("content");
  expect(cardUrl).toMatch(/\/static\/[0-9a-f]+\/share-card\.png$/);
  const card = await pictureBytes(page, siteUrl, cardUrl!);
  const cardText = ocr(card);
  console.log(`pictures e2e: OCR of the built sharing card: ${cardText}`);
  expect(cardText).toContain(NEW_EVENT_NAME);
  expect(cardText).toMatch(new RegExp(`#\\s?${NEW.booth}`));
  expect(cardText).toContain(NEW.year);
  expect(cardText).not.toMatch(new RegExp(`${OLD.booth}|${OLD.year}`));
  expect(cardAlt).toContain(`booth ${NEW.booth}`);
  expect(cardAlt).toContain(NEW_EVENT_NAME);
  expect(cardAlt).not.toMatch(new RegExp(`${OLD.booth}|${OLD.year}`));

  const illustration = page.locator("#contact-form picture img");
  await illustration.scrollIntoViewIfNeeded();
  await expect(illustration).toBeVisible();
  await expect(illustration).toHaveAttribute("alt", new RegExp(`numbered ${NEW.booth}\\b`));
  const candidates = (await illustration.getAttribute("srcset"))!.split(",");
  const largest = candidates.at(-1)!.trim().split(/\s+/)[0]!;
  const illustrationPng = await pictureBytes(page, siteUrl, largest);
  const { width = 0 } = await sharp(illustrationPng).metadata();
  // The sign's text, cut out where the SVG drew it, read as one line.
  const sign = drawnLineBoxes(illustrationSvg).find(({ line }) => line.endsWith(NEW.booth));
  if (!sign) throw new Error("The illustration's SVG draws no booth sign.");
  const signText = await ocrLine(illustrationPng, sign.box, width / 1200);
  console.log(
    `pictures e2e: OCR of the built illustration's booth sign (${width} px): ${signText}`,
  );
  expect(signText.replace(/0/g, "O")).toMatch(new RegExp(`BOOTH ${NEW.booth}`));
  expect(ocr(illustrationPng)).not.toContain(OLD.booth);
}
