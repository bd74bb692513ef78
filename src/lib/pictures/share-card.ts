/**
 * The sharing card (og:image / twitter:image, 1200 × 630): the event, booth, dates, place, the
 * hero headline and the company name, drawn over the card's fixed artwork. Each text has a box
 * it always fits in (fit-text.ts); the art on the right stays clear of it.
 */
import { centredBaseline, drawLines, fit, widestLine, type TextBlock } from "./draw-text";
import { round, type GlyphAtlas } from "./glyphs";
import type { PictureFacts } from "./picture-facts";

export const SHARE_CARD = { width: 1200, height: 630 } as const;

const LEFT = 80;
const BADGE = { top: 84, height: 50, padding: 22 } as const;

export const SHARE_CARD_BLOCKS = {
  // Left of the artwork's top line (from x 820); a long event name takes a second line.
  badge: {
    weight: "bold",
    maxLines: 2,
    maxSize: 24,
    minSize: 17,
    width: 720 - 2 * BADGE.padding,
    lineHeight: 1.15,
  },
  headline: { weight: "bold", maxLines: 3, maxSize: 58, minSize: 34, width: 760, lineHeight: 1.24 },
  when: { weight: "regular", maxLines: 2, maxSize: 28, minSize: 20, width: 700, lineHeight: 1.2 },
  company: { weight: "bold", maxLines: 2, maxSize: 30, minSize: 20, width: 620, lineHeight: 1.2 },
} as const satisfies Record<string, TextBlock>;

export function shareCardSvg(facts: PictureFacts, atlas: GlyphAtlas): string {
  const blocks = SHARE_CARD_BLOCKS;
  const badgeWords = `${facts.eventName} · ${facts.boothLabel} #${facts.booth}`;
  const badge = fit(badgeWords, blocks.badge, atlas);
  const badgeHeight =
    BADGE.height + (badge.lines.length - 1) * blocks.badge.lineHeight * badge.size;
  const badgeBaseline = centredBaseline(
    BADGE.top + badgeHeight / 2,
    badge.lines.length,
    badge.size,
    blocks.badge,
    atlas,
  );
  const badgeText = drawLines(
    badge,
    blocks.badge,
    atlas,
    { x: LEFT + BADGE.padding, baseline: badgeBaseline },
    "#0B2545",
  );
  const badgeWidth = Math.ceil(widestLine(badge, blocks.badge, atlas)) + 2 * BADGE.padding;
  const headline = fit(facts.headline, blocks.headline, atlas);
  const when = fit(`${facts.dates} · ${facts.place}`, blocks.when, atlas);
  const company = fit(facts.companyName, blocks.company, atlas);
  // The last lines stay where they are; a second line of the dates or the company name goes above.
  const whenBaseline = 470 - (when.lines.length - 1) * blocks.when.lineHeight * when.size;
  const companyBaseline =
    560 - (company.lines.length - 1) * blocks.company.lineHeight * company.size;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${SHARE_CARD.width}" height="${SHARE_CARD.height}" viewBox="0 0 ${SHARE_CARD.width} ${SHARE_CARD.height}">
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#0B2545"/>
      <stop offset="1" stop-color="#0F4C81"/>
    </linearGradient>
  </defs>
  <rect width="1200" height="630" fill="url(#bg)"/>
  <g fill="none" stroke-linecap="round" stroke-linejoin="round" opacity="0.9">
    <path d="M760 560 C 860 470, 900 400, 1000 380 S 1120 300, 1160 200" stroke="#F2B33D" stroke-width="10"/>
    <path d="M700 600 C 800 520, 860 500, 940 470 S 1080 430, 1180 430" stroke="#3BA3A3" stroke-width="6" stroke-dasharray="2 18"/>
    <path d="M820 120 L 900 200 L 1040 200 L 1110 120" stroke="#8FB8E6" stroke-width="6" opacity="0.6"/>
  </g>
  <g fill="#ffffff">
    <circle cx="1000" cy="380" r="16"/>
    <circle cx="1160" cy="200" r="16"/>
    <circle cx="900" cy="200" r="10" opacity="0.8"/>
  </g>
  <circle cx="1000" cy="380" r="7" fill="#F2B33D"/>
  <rect x="${LEFT}" y="${BADGE.top}" width="${badgeWidth}" height="${round(badgeHeight)}" rx="${BADGE.height / 2}" fill="#F2B33D"/>
  ${badgeText}
  ${drawLines(headline, blocks.headline, atlas, { x: LEFT, baseline: 180 + headline.size * 0.98 }, "#FFFFFF")}
  ${drawLines(when, blocks.when, atlas, { x: LEFT, baseline: whenBaseline }, "#C9D6E8")}
  ${drawLines(company, blocks.company, atlas, { x: LEFT, baseline: companyBaseline }, "#FFFFFF")}
</svg>
`;
}
