/**
 * The meeting illustration beside the form (drawn at 1200 × 900, published as a 1600 × 1200
 * picture): the company's short name on the booth's header and the booth number on its sign,
 * drawn over the illustration's fixed artwork. The sign grows with its text; the name gets the
 * rest of the header and wraps or shrinks to fit it.
 */
import { centredBaseline, drawLines, fit, widestLine, type TextBlock } from "./draw-text";
import type { GlyphAtlas } from "./glyphs";
import type { PictureFacts } from "./picture-facts";

export const MEETING_ILLUSTRATION = {
  width: 1200,
  height: 900,
  publishedWidth: 1600,
  publishedHeight: 1200,
} as const;

const HEADER = { left: 180, right: 1056, middle: 162, gap: 24 } as const;
const SIGN = { top: 132, height: 60, padding: 24, minWidth: 180 } as const;

export const MEETING_ILLUSTRATION_BLOCKS = {
  sign: {
    weight: "bold",
    maxLines: 1,
    maxSize: 32,
    minSize: 20,
    width: 400 - 2 * SIGN.padding,
    lineHeight: 1.1,
  },
  name: { weight: "bold", maxLines: 2, maxSize: 40, minSize: 20, width: 0, lineHeight: 1.1 },
} as const satisfies Record<string, TextBlock>;

export function meetingIllustrationSvg(facts: PictureFacts, atlas: GlyphAtlas): string {
  const blocks = MEETING_ILLUSTRATION_BLOCKS;
  const signText = `${facts.boothLabel} ${facts.booth}`.toLocaleUpperCase("en-US");
  const sign = fit(signText, blocks.sign, atlas);
  const signTextWidth = Math.ceil(widestLine(sign, blocks.sign, atlas));
  const signWidth = Math.max(SIGN.minWidth, signTextWidth + 2 * SIGN.padding);
  const signLeft = HEADER.right - signWidth;
  const nameBlock = { ...blocks.name, width: signLeft - HEADER.gap - HEADER.left };
  const name = fit(facts.shortName.toLocaleUpperCase("en-US"), nameBlock, atlas);
  // The dashboard's figure and caption are part of the artwork, drawn with the same font.
  const dashboardFigure = drawLines(
    { size: 54, lines: ["7.2"], shortened: false },
    blocks.name,
    atlas,
    { x: 780, baseline: 352 },
    "#0F4C81",
  );
  const dashboardCaption = drawLines(
    { size: 20, lines: ["trips / vehicle hour"], shortened: false },
    { ...blocks.name, weight: "regular" },
    atlas,
    { x: 780, baseline: 384 },
    "#3C4A5C",
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${MEETING_ILLUSTRATION.width}" height="${MEETING_ILLUSTRATION.height}" viewBox="0 0 ${MEETING_ILLUSTRATION.width} ${MEETING_ILLUSTRATION.height}">
${BACKDROP}  ${drawLines(name, nameBlock, atlas, { x: HEADER.left, baseline: centredBaseline(HEADER.middle, name.lines.length, name.size, nameBlock, atlas) }, "#FFFFFF")}
  <!-- booth number sign -->
  <rect x="${signLeft}" y="${SIGN.top}" width="${signWidth}" height="${SIGN.height}" rx="${SIGN.height / 2}" fill="#F2B33D"/>
  ${drawLines(sign, blocks.sign, atlas, { x: signLeft + signWidth / 2, baseline: centredBaseline(SIGN.top + SIGN.height / 2, 1, sign.size, blocks.sign, atlas), anchor: "middle" }, "#0B2545")}
${SCREEN_AND_PANEL}  ${dashboardFigure}
  ${dashboardCaption}
${PEOPLE_BUS_AND_PLANT}</svg>
`;
}

/** The fixed artwork: sky, floor and the booth's back wall with its header band. */
const BACKDROP = `  <defs>
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#E8F1FB"/>
      <stop offset="1" stop-color="#F7FAFD"/>
    </linearGradient>
    <linearGradient id="screen" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#0F4C81"/>
      <stop offset="1" stop-color="#0B2545"/>
    </linearGradient>
    <linearGradient id="floor" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#D6E2F0"/>
      <stop offset="1" stop-color="#C3D3E6"/>
    </linearGradient>
  </defs>
  <rect width="1200" height="900" fill="url(#sky)"/>
  <!-- floor -->
  <path d="M0 690 H1200 V900 H0 Z" fill="url(#floor)"/>
  <path d="M0 690 H1200" stroke="#B4C6DC" stroke-width="4"/>
  <!-- booth back wall -->
  <rect x="130" y="120" width="940" height="570" rx="18" fill="#FFFFFF" stroke="#D2DEEC" stroke-width="4"/>
  <rect x="130" y="120" width="940" height="84" rx="18" fill="#0B2545"/>
  <rect x="130" y="180" width="940" height="24" fill="#0B2545"/>
`;

/** The big screen with the microtransit map, and the dashboard panel around its figure. */
const SCREEN_AND_PANEL = `  <!-- big screen with microtransit map -->
  <rect x="190" y="240" width="520" height="320" rx="14" fill="url(#screen)"/>
  <g stroke="#2E6FA8" stroke-width="2" opacity="0.6">
    <path d="M190 320 H710 M190 400 H710 M190 480 H710 M290 240 V560 M420 240 V560 M550 240 V560"/>
  </g>
  <path d="M230 520 C300 500 320 420 400 410 S520 330 560 300 S650 280 680 270" fill="none" stroke="#F2B33D" stroke-width="10" stroke-linecap="round"/>
  <path d="M240 290 C320 330 360 360 430 380 S560 470 660 500" fill="none" stroke="#3CC6B6" stroke-width="8" stroke-linecap="round" stroke-dasharray="2 20"/>
  <g fill="#FFFFFF" stroke="#0B2545" stroke-width="4">
    <circle cx="230" cy="520" r="13"/>
    <circle cx="400" cy="410" r="13"/>
    <circle cx="560" cy="300" r="13"/>
    <circle cx="680" cy="270" r="13"/>
  </g>
  <g>
    <path d="M470 335 c0 -22 18 -40 40 -40 s40 18 40 40 c0 30 -40 66 -40 66 s-40 -36 -40 -66z" fill="#E4572E"/>
    <circle cx="510" cy="335" r="15" fill="#FFFFFF"/>
  </g>
  <!-- dashboard panel -->
  <rect x="750" y="240" width="270" height="320" rx="14" fill="#F1F6FC" stroke="#D2DEEC" stroke-width="4"/>
  <rect x="780" y="272" width="120" height="16" rx="8" fill="#0B2545"/>
`;

/** The minibus, the meeting table, the two people and the plant. */
const PEOPLE_BUS_AND_PLANT = `  <g fill="#0E7C7B">
    <rect x="780" y="500" width="28" height="40" rx="4"/>
    <rect x="822" y="470" width="28" height="70" rx="4"/>
    <rect x="864" y="440" width="28" height="100" rx="4"/>
    <rect x="906" y="420" width="28" height="120" rx="4"/>
    <rect x="948" y="400" width="28" height="140" rx="4" fill="#F2B33D"/>
  </g>
  <!-- minibus -->
  <g transform="translate(760 560)">
    <rect x="0" y="0" width="330" height="150" rx="28" fill="#0F4C81"/>
    <rect x="0" y="100" width="330" height="50" rx="0" fill="#0B3A63"/>
    <rect x="0" y="120" width="330" height="30" rx="14" fill="#0B3A63"/>
    <g fill="#CFE3F7">
      <rect x="24" y="24" width="70" height="56" rx="10"/>
      <rect x="108" y="24" width="70" height="56" rx="10"/>
      <rect x="192" y="24" width="70" height="56" rx="10"/>
      <path d="M276 24 h26 a16 16 0 0 1 16 16 v40 h-42 z"/>
    </g>
    <rect x="24" y="94" width="240" height="10" rx="5" fill="#F2B33D"/>
    <circle cx="70" cy="150" r="30" fill="#1B2430"/>
    <circle cx="70" cy="150" r="12" fill="#C3D3E6"/>
    <circle cx="260" cy="150" r="30" fill="#1B2430"/>
    <circle cx="260" cy="150" r="12" fill="#C3D3E6"/>
  </g>
  <!-- meeting table -->
  <ellipse cx="420" cy="700" rx="200" ry="34" fill="#B4C6DC"/>
  <rect x="250" y="612" width="340" height="26" rx="13" fill="#0B2545"/>
  <rect x="405" y="638" width="30" height="64" fill="#0B2545"/>
  <rect x="345" y="700" width="150" height="14" rx="7" fill="#0B2545"/>
  <!-- laptop and coffee -->
  <path d="M380 612 l12 -58 h96 l-12 58 z" fill="#3C4A5C"/>
  <circle cx="434" cy="582" r="9" fill="#F2B33D"/>
  <rect x="300" y="590" width="26" height="22" rx="5" fill="#FFFFFF" stroke="#0B2545" stroke-width="4"/>
  <!-- person left (visitor) -->
  <g>
    <circle cx="222" cy="468" r="36" fill="#8D5B3E"/>
    <path d="M186 462 c0 -34 22 -52 40 -52 s40 16 36 46 c-10 -14 -34 -20 -52 -14 c-10 4 -20 10 -24 20z" fill="#1B2430"/>
    <path d="M160 620 c0 -80 26 -114 62 -114 s62 34 62 114 z" fill="#0E7C7B"/>
    <path d="M262 560 l60 40" stroke="#0E7C7B" stroke-width="26" stroke-linecap="round"/>
    <rect x="180" y="620" width="84" height="100" rx="10" fill="#0B2545"/>
    <rect x="208" y="720" width="26" height="70" rx="8" fill="#1B2430"/>
  </g>
  <!-- person right (consultant) -->
  <g>
    <circle cx="620" cy="466" r="36" fill="#F0C7A4"/>
    <path d="M584 460 c0 -30 16 -50 38 -50 c26 0 40 20 36 52 c-6 -18 -22 -26 -40 -24 c-16 2 -28 10 -34 22z" fill="#6B3F22"/>
    <path d="M556 620 c0 -80 28 -114 64 -114 s62 34 62 114 z" fill="#F2B33D"/>
    <path d="M566 566 l-50 34" stroke="#F2B33D" stroke-width="26" stroke-linecap="round"/>
    <rect x="574" y="620" width="84" height="100" rx="10" fill="#3C4A5C"/>
    <rect x="606" y="720" width="26" height="70" rx="8" fill="#1B2430"/>
  </g>
  <!-- plant -->
  <g transform="translate(1090 560)">
    <rect x="-30" y="60" width="60" height="70" rx="10" fill="#0B2545"/>
    <path d="M0 60 C-40 30 -50 -10 -30 -40 C-10 -10 -5 20 0 60 Z" fill="#0E7C7B"/>
    <path d="M0 60 C40 30 50 -20 26 -50 C8 -16 4 20 0 60 Z" fill="#3CC6B6"/>
  </g>
`;
