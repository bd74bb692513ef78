/** Lines of fitted text as SVG paths, each labelled with its words (read back by tests and tools). */
import { fitText, type FittedText, type TextBox } from "./fit-text";
import { textOutline, textWidth, type FontWeight, type GlyphAtlas } from "./glyphs";

export function escapeXml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}

export type TextBlock = TextBox & {
  weight: FontWeight;
  /** Line height as a multiple of the font size. */
  lineHeight: number;
};

export function fit(text: string, block: TextBlock, atlas: GlyphAtlas): FittedText {
  return fitText(text, block, (line, size) =>
    textWidth(line, { atlas, weight: block.weight, size }),
  );
}

/** Width of the widest fitted line, in pixels. */
export function widestLine(fitted: FittedText, block: TextBlock, atlas: GlyphAtlas): number {
  const style = { atlas, weight: block.weight, size: fitted.size };
  return Math.max(0, ...fitted.lines.map((line) => textWidth(line, style)));
}

export type Placement = { x: number; baseline: number; anchor?: "start" | "middle" };

/** One <path> per line, the first line's baseline at `baseline`, the next ones lineHeight × size below. */
export function drawLines(
  fitted: FittedText,
  block: TextBlock,
  atlas: GlyphAtlas,
  at: Placement,
  fill: string,
): string {
  const style = { atlas, weight: block.weight, size: fitted.size };
  return fitted.lines
    .map((line, index) => {
      const width = textWidth(line, style);
      const x = at.anchor === "middle" ? at.x - width / 2 : at.x;
      const y = at.baseline + index * block.lineHeight * fitted.size;
      return `<path aria-label="${escapeXml(line)}" fill="${fill}" d="${textOutline(line, x, y, style)}"/>`;
    })
    .join("\n  ");
}

/** Labels of the drawn lines of an SVG made by drawLines, in order (what a test reads back). */
export function drawnLines(svg: string): string[] {
  return drawnLineBoxes(svg).map(({ line }) => line);
}

/** The baseline of the first of `lines` lines whose capitals are centred on `middle`. */
export function centredBaseline(
  middle: number,
  lines: number,
  size: number,
  block: TextBlock,
  atlas: GlyphAtlas,
): number {
  const capHeight = (atlas.capHeight * size) / atlas.unitsPerEm;
  const blockHeight = (lines - 1) * block.lineHeight * size + capHeight;
  return middle - blockHeight / 2 + capHeight;
}

export type LineBox = { left: number; top: number; right: number; bottom: number };

/** The extent of each labelled line drawn by drawLines, from its outline's coordinates (SVG units). */
export function drawnLineBoxes(svg: string): Array<{ line: string; box: LineBox }> {
  return [...svg.matchAll(/<path aria-label="([^"]*)" fill="[^"]*" d="([^"]*)"/g)].map((match) => {
    const numbers = (match[2] ?? "").match(/-?\d*\.?\d+/g)?.map(Number) ?? [];
    const xs = numbers.filter((_, index) => index % 2 === 0);
    const ys = numbers.filter((_, index) => index % 2 === 1);
    const line = (match[1] ?? "")
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&amp;/g, "&");
    return {
      line,
      box: {
        left: Math.min(...xs),
        top: Math.min(...ys),
        right: Math.max(...xs),
        bottom: Math.max(...ys),
      },
    };
  });
}
