/**
 * Text drawn as outlines from a glyph atlas: each character's advance width and outline (font
 * units, y up) and the font's pair kerning, read from the font file once (build-time/pictures/
 * font-atlas.ts). The build and the CMS preview draw with the same atlas and this same code, so
 * the preview shows the picture exactly as it will be built, and no fonts installed on the machine
 * (fontconfig, librsvg's text rendering) play any part.
 */

export type FontWeight = "regular" | "bold";

/** One character: its advance width and its outline as SVG path data (font units, y up). */
export type Glyph = readonly [advance: number, outline: string];

export type WeightGlyphs = {
  glyphs: Readonly<Record<string, Glyph>>;
  /** Kerning of a pair of characters ("AV" → -40), in font units; pairs without kerning are absent. */
  kerning: Readonly<Record<string, number>>;
  /** Drawn for a character the font lacks (the font's own "missing glyph" box). */
  missing: Glyph;
};

export type GlyphAtlas = {
  unitsPerEm: number;
  /** Height of capital letters, in font units (to centre a line in a badge). */
  capHeight: number;
  weights: Readonly<Record<FontWeight, WeightGlyphs>>;
};

export type TextStyle = { atlas: GlyphAtlas; weight: FontWeight; size: number };

function glyphOf(font: WeightGlyphs, character: string): Glyph {
  return font.glyphs[character] ?? font.missing;
}

/** Pen positions of each character of `text` (font units), and the line's total advance. */
function layout(font: WeightGlyphs, text: string): { pens: number[]; advance: number } {
  const characters = [...text];
  const pens: number[] = [];
  let pen = 0;
  characters.forEach((character, index) => {
    pens.push(pen);
    pen += glyphOf(font, character)[0];
    const next = characters[index + 1];
    if (next !== undefined) pen += font.kerning[character + next] ?? 0;
  });
  return { pens, advance: pen };
}

/** Width of `text` in pixels at the style's size. */
export function textWidth(text: string, style: TextStyle): number {
  return (
    (layout(style.atlas.weights[style.weight], text).advance * style.size) / style.atlas.unitsPerEm
  );
}

const NUMBER = /-?\d*\.?\d+(?:e-?\d+)?/gi;

/** A coordinate for SVG: at most two decimals. */
export function round(value: number): string {
  return String(Math.round(value * 100) / 100);
}

/** A glyph outline moved to (x, baseline) and scaled: absolute commands (M L Q C Z) in, out. */
function placeOutline(outline: string, x: number, baseline: number, scale: number): string {
  return outline.replace(/([MLQCZ])([^MLQCZ]*)/g, (_match, command: string, args: string) => {
    const numbers = (args.match(NUMBER) ?? []).map(Number);
    const placed = numbers.map((value, index) =>
      round(index % 2 === 0 ? x + value * scale : baseline - value * scale),
    );
    return `${command}${placed.join(" ")}`;
  });
}

/** SVG path data drawing `text` with its left end at x and its baseline at y. */
export function textOutline(text: string, x: number, y: number, style: TextStyle): string {
  const font = style.atlas.weights[style.weight];
  const scale = style.size / style.atlas.unitsPerEm;
  const { pens } = layout(font, text);
  return [...text]
    .map((character, index) =>
      placeOutline(glyphOf(font, character)[1], x + (pens[index] ?? 0) * scale, y, scale),
    )
    .join("");
}
