/**
 * The glyph atlas the pictures are drawn with (src/lib/pictures/glyphs.ts), read with fontkit from
 * @fontsource/source-sans-3 in node_modules, so every build draws the same outlines.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import * as fontkit from "fontkit";
import type { FontWeight, Glyph, GlyphAtlas, WeightGlyphs } from "../../src/lib/pictures/glyphs";

const FONT_FILES: Record<FontWeight, string> = {
  regular: "source-sans-3-latin-400-normal.woff2",
  bold: "source-sans-3-latin-700-normal.woff2",
};

/** From the project root: gatsby-node code runs from a compiled copy in .cache/ (no require.resolve there). */
const fontFile = (name: string) =>
  path.join(process.cwd(), "node_modules", "@fontsource", "source-sans-3", "files", name);

function openFont(file: string): fontkit.Font {
  const font = fontkit.create(fs.readFileSync(file));
  if (!("layout" in font)) throw new Error(`${file} is a font collection, not a font.`);
  return font;
}

const glyphOf = (glyph: fontkit.Glyph): Glyph => [glyph.advanceWidth, glyph.path.toSVG()];

function weightGlyphs(font: fontkit.Font): WeightGlyphs {
  const characters = font.characterSet
    .filter((codePoint) => codePoint > 32)
    .map((codePoint) => String.fromCodePoint(codePoint));
  const glyphs: Record<string, Glyph> = { " ": glyphOf(font.glyphForCodePoint(32)) };
  for (const character of characters)
    glyphs[character] = glyphOf(font.glyphForCodePoint(character.codePointAt(0) ?? 0));
  const kerning: Record<string, number> = {};
  for (const first of characters) {
    for (const second of characters) {
      const run = font.layout(first + second);
      const [glyph] = run.glyphs;
      const [position] = run.positions;
      // Only a plain pair of glyphs: a pair the font joins into one (a ligature) is drawn unjoined.
      if (run.glyphs.length !== 2 || !glyph || !position) continue;
      const kern = position.xAdvance - glyph.advanceWidth;
      if (kern !== 0) kerning[first + second] = kern;
    }
  }
  return { glyphs, kerning, missing: glyphOf(font.getGlyph(0)) };
}

/** The atlas read from the font files (slow: see cacheFile). */
export function readAtlas(): GlyphAtlas {
  const regular = openFont(fontFile(FONT_FILES.regular));
  const bold = openFont(fontFile(FONT_FILES.bold));
  return {
    unitsPerEm: regular.unitsPerEm,
    capHeight: regular.capHeight,
    weights: { regular: weightGlyphs(regular), bold: weightGlyphs(bold) },
  };
}

/** Raise when the atlas's shape or the way it is read changes: older cached atlases are then ignored. */
const ATLAS_FORMAT = 1;

/** Reading every pair's kerning takes seconds: kept in node_modules/.cache/ by the fonts' hash. */
function cacheFile(): string {
  const hash = crypto.createHash("sha256").update(String(ATLAS_FORMAT));
  for (const name of Object.values(FONT_FILES)) hash.update(fs.readFileSync(fontFile(name)));
  return path.join(
    process.cwd(),
    "node_modules",
    ".cache",
    "drawn-pictures",
    `glyph-atlas-${hash.digest("hex").slice(0, 16)}.json`,
  );
}

let cached: GlyphAtlas | undefined;

/** The atlas, read once per machine and font version (see cacheFile), then once per process. */
export function glyphAtlas(): GlyphAtlas {
  if (cached) return cached;
  const file = cacheFile();
  try {
    cached = JSON.parse(fs.readFileSync(file, "utf8")) as GlyphAtlas;
    return cached;
  } catch {
    // Not read yet on this machine (or unreadable): read it from the fonts.
  }
  cached = readAtlas();
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(`${file}.${process.pid}`, JSON.stringify(cached));
  fs.renameSync(`${file}.${process.pid}`, file);
  return cached;
}

let cachedJson: string | undefined;

/** The atlas as JSON, for the CMS preview (served under /admin/). */
export const glyphAtlasJson = (): string => (cachedJson ??= JSON.stringify(glyphAtlas()));
