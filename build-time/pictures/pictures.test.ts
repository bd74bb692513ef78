/**
 * The drawn pictures with the real font (Source Sans 3 from @fontsource, read by fontkit): long
 * company, event and booth names wrap or shrink and never leave their box or the picture, and
 * the pictures are written at their published sizes.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { drawnLineBoxes, drawnLines, type LineBox } from "../../src/lib/pictures/draw-text";
import { textWidth } from "../../src/lib/pictures/glyphs";
import {
  MEETING_ILLUSTRATION,
  meetingIllustrationSvg,
} from "../../src/lib/pictures/meeting-illustration";
import type { PictureFacts } from "../../src/lib/pictures/picture-facts";
import { SHARE_CARD, SHARE_CARD_BLOCKS, shareCardSvg } from "../../src/lib/pictures/share-card";
import { drawPictures } from "./gatsby-pictures";
import { glyphAtlas, readAtlas } from "./font-atlas";

const atlas = glyphAtlas();

const TODAY: PictureFacts = {
  companyName: "Meridian Mobility Systems",
  shortName: "Meridian Mobility",
  eventName: "CTAA Expo 2025",
  booth: "713",
  boothLabel: "Booth",
  dates: "May 18 – 21, 2025",
  place: "Palm Springs, CA",
  headline: "Turn microtransit from a costly experiment into sustainable success",
};

const LONG: PictureFacts = {
  companyName:
    "Meridian Mobility Systems and Regional Demand-Response Transportation Consultancy International, Incorporated",
  shortName: "Meridian Mobility Systems International Holdings",
  eventName:
    "Community Transportation Association of America Annual Expo and Microtransit Summit 2026",
  booth: "1204-B (South Hall, next to the registration desk)",
  boothLabel: "Booth",
  dates: "December 30, 2026 – January 2, 2027",
  place: "Rancho Palos Verdes Convention and Visitors Center, California",
  headline:
    "Turn microtransit from a costly experiment into sustainable success with dispatching, scheduling, trip exchange and mobility as a service built for your agency",
};

function inside(inner: LineBox, outer: LineBox): boolean {
  return (
    inner.left >= outer.left &&
    inner.right <= outer.right &&
    inner.top >= outer.top &&
    inner.bottom <= outer.bottom
  );
}

/** Where the card's texts may go: left of the artwork on the right, inside the card's margins. */
const CARD_TEXT_AREA: LineBox = { left: 80, top: 84, right: 80 + 1040, bottom: 630 - 30 };

describe("the sharing card", () => {
  it("draws the event, booth, dates, place, headline and company name", () => {
    expect(drawnLines(shareCardSvg(TODAY, atlas))).toEqual([
      "CTAA Expo 2025 · Booth #713",
      "Turn microtransit from a",
      "costly experiment into",
      "sustainable success",
      "May 18 – 21, 2025 · Palm Springs, CA",
      "Meridian Mobility Systems",
    ]);
  });

  it("keeps long names inside their boxes: wrapped, shrunk, and shortened with … only past the smallest size", () => {
    const svg = shareCardSvg(LONG, atlas);
    const boxes = drawnLineBoxes(svg);
    for (const { line, box } of boxes)
      expect({ line, inside: inside(box, CARD_TEXT_AREA) }).toEqual({ line, inside: true });
    // The headline keeps to its column, clear of the artwork on the right.
    const headline = boxes.filter(({ box }) => box.top > 150 && box.bottom < 430);
    expect(headline.length).toBeGreaterThanOrEqual(2);
    for (const { box } of headline)
      expect(box.right).toBeLessThanOrEqual(80 + SHARE_CARD_BLOCKS.headline.width);
    // The company name wraps onto two lines above the bottom margin.
    expect(drawnLines(svg).slice(-2).join(" ")).toMatch(/^Meridian Mobility Systems and Regional/);
    // No line of one block overlaps the next block.
    const tops = boxes.map(({ box }) => box.top);
    const bottoms = boxes.map(({ box }) => box.bottom);
    for (let index = 1; index < boxes.length; index += 1)
      expect(tops[index]).toBeGreaterThan(bottoms[index - 1] ?? 0);
  });

  it("measures with the font's real widths: a line of wide letters is wider than one of narrow letters", () => {
    const style = { atlas, weight: "bold" as const, size: 40 };
    expect(textWidth("WWWWWWWWWW", style)).toBeGreaterThan(2.5 * textWidth("iiiiiiiiii", style));
    // Kerning: "AV" is narrower than "A" and "V" apart.
    expect(textWidth("AV", style)).toBeLessThan(textWidth("A", style) + textWidth("V", style));
  });
});

describe("the meeting illustration", () => {
  it("draws the short name on the booth and the booth number on its sign, in capitals", () => {
    expect(drawnLines(meetingIllustrationSvg(TODAY, atlas)).slice(0, 2)).toEqual([
      "MERIDIAN MOBILITY",
      "BOOTH 713",
    ]);
  });

  it("keeps a long name and a long booth on the booth's header, side by side without overlapping", () => {
    const boxes = drawnLineBoxes(meetingIllustrationSvg(LONG, atlas));
    const header: LineBox = { left: 130, top: 120, right: 1070, bottom: 204 };
    const onHeader = boxes.filter(({ box }) => box.top < 204);
    expect(onHeader.length).toBeGreaterThanOrEqual(2);
    for (const { line, box } of onHeader)
      expect({ line, inside: inside(box, header) }).toEqual({ line, inside: true });
    const sign = onHeader[onHeader.length - 1]?.box;
    for (const { box } of onHeader.slice(0, -1)) expect(box.right).toBeLessThan(sign?.left ?? 0);
  });
});

describe("the glyph atlas", () => {
  it("is, from node_modules/.cache, the atlas the font files give", () => {
    expect(glyphAtlas()).toEqual(JSON.parse(JSON.stringify(readAtlas())));
  }, 60_000);
});

describe("drawPictures", () => {
  it("writes the card at 1200 × 630 and the illustration at 1600 × 1200, each with its SVG, and rewrites nothing unchanged", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "drawn-"));
    try {
      const first = await drawPictures(TODAY, dir);
      expect(await sharp(first.shareCard).metadata()).toMatchObject({
        format: "png",
        width: SHARE_CARD.width,
        height: SHARE_CARD.height,
      });
      expect(await sharp(first.meetingIllustration).metadata()).toMatchObject({
        format: "png",
        width: MEETING_ILLUSTRATION.publishedWidth,
        height: MEETING_ILLUSTRATION.publishedHeight,
      });
      expect(fs.readFileSync(first.shareCard.replace(/\.png$/, ".svg"), "utf8")).not.toMatch(
        /<text|font-family/,
      );
      expect(first.changed).toHaveLength(4);
      // Drawn again after a changed fact: gatsby-pictures.test.ts and e2e/tests/pictures.spec.ts.
      expect((await drawPictures(TODAY, dir)).changed).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
