/**
 * Fits a text into a box: the largest font size at which it wraps into the allowed lines without
 * any line wider than the box, measured with the font's real advance widths (glyphs.ts). When
 * even the smallest size does not fit, words longer than the box are broken and the last line
 * ends in "…": the text never leaves its box.
 */

export type TextBox = {
  /** Widest a line may be, in pixels. */
  width: number;
  maxLines: number;
  /** Font sizes tried, largest first, in 1 px steps. */
  maxSize: number;
  minSize: number;
};

export type FittedText = { size: number; lines: string[]; shortened: boolean };

/** Width of a text at a font size, in pixels. */
export type Measure = (text: string, size: number) => number;

const ELLIPSIS = "…";

/** Greedy wrap; undefined when a single word is wider than the box. */
function wrap(words: readonly string[], fits: (line: string) => boolean): string[] | undefined {
  const lines: string[] = [];
  let line = "";
  for (const word of words) {
    const candidate = line === "" ? word : `${line} ${word}`;
    if (fits(candidate)) {
      line = candidate;
    } else if (line !== "" && fits(word)) {
      lines.push(line);
      line = word;
    } else {
      return undefined;
    }
  }
  if (line !== "") lines.push(line);
  return lines;
}

/** Splits words wider than the box into pieces that fit (for a name with no spaces to wrap at). */
function breakLongWords(words: readonly string[], fits: (line: string) => boolean): string[] {
  return words.flatMap((word) => {
    if (fits(word)) return [word];
    const pieces: string[] = [];
    let piece = "";
    for (const character of word) {
      if (piece !== "" && !fits(piece + character)) {
        pieces.push(piece);
        piece = "";
      }
      piece += character;
    }
    return piece === "" ? pieces : [...pieces, piece];
  });
}

/** Shortens `line` until it fits with "…" at its end. */
function withEllipsis(line: string, fits: (line: string) => boolean): string {
  let characters = [...line.trimEnd()];
  while (characters.length > 0 && !fits(`${characters.join("").trimEnd()}${ELLIPSIS}`))
    characters = characters.slice(0, -1);
  return `${characters.join("").trimEnd()}${ELLIPSIS}`;
}

export function fitText(text: string, box: TextBox, measure: Measure): FittedText {
  const words = text.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return { size: box.maxSize, lines: [], shortened: false };
  for (let size = box.maxSize; size >= box.minSize; size -= 1) {
    const lines = wrap(words, (line) => measure(line, size) <= box.width);
    if (lines && lines.length <= box.maxLines) return { size, lines, shortened: false };
  }
  const size = box.minSize;
  const fits = (line: string) => measure(line, size) <= box.width;
  const lines = wrap(breakLongWords(words, fits), fits) ?? [];
  if (lines.length <= box.maxLines) return { size, lines, shortened: false };
  const kept = lines.slice(0, box.maxLines);
  kept[kept.length - 1] = withEllipsis(kept[kept.length - 1] ?? "", fits);
  return { size, lines: kept, shortened: true };
}
