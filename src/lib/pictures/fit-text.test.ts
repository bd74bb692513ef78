import { fitText, type Measure, type TextBox } from "./fit-text";

/** Every character is 0.5 em wide: easy widths to reason about (the real font is tested in build-time/pictures). */
const halfEm: Measure = (text, size) => [...text].length * size * 0.5;

const BOX: TextBox = { width: 300, maxLines: 2, maxSize: 40, minSize: 20 };

function widest(lines: readonly string[], size: number): number {
  return Math.max(0, ...lines.map((line) => halfEm(line, size)));
}

describe("fitText", () => {
  it.each([
    ["keeps a short text on one line at the largest size", "Booth 713", 300, ["Booth 713"]],
    [
      "wraps a longer text before it shrinks it",
      "Meridian Mobility Systems",
      360,
      ["Meridian Mobility", "Systems"],
    ],
    ["draws nothing for empty text", "   ", 300, []],
  ])("%s", (_what, text, width, lines) => {
    expect(fitText(text, { ...BOX, width }, halfEm)).toEqual({ size: 40, lines, shortened: false });
  });

  it("shrinks a text that does not fit its lines at the largest size, and never overflows", () => {
    const text = "International Association of Demand Response Transit";
    const fitted = fitText(text, BOX, halfEm);
    expect(fitted.size).toBeLessThan(40);
    expect(fitted.size).toBeGreaterThanOrEqual(20);
    expect(fitted.lines.length).toBeLessThanOrEqual(2);
    expect(fitted.lines.join(" ")).toBe(text);
    expect(widest(fitted.lines, fitted.size)).toBeLessThanOrEqual(BOX.width);
    // One size larger would not have fitted in two lines.
    expect(fitText(text, { ...BOX, minSize: fitted.size + 1 }, halfEm).shortened).toBe(true);
  });

  it("ends in … when even the smallest size cannot hold the text, still inside the box", () => {
    const text =
      "The Greater Metropolitan Regional Transportation Authority Annual Microtransit and Paratransit Expo";
    const fitted = fitText(text, BOX, halfEm);
    expect(fitted.size).toBe(20);
    expect(fitted.lines).toHaveLength(2);
    expect(fitted.shortened).toBe(true);
    expect(fitted.lines[1]?.endsWith("…")).toBe(true);
    expect(widest(fitted.lines, 20)).toBeLessThanOrEqual(BOX.width);
  });

  it("breaks a single word wider than the box instead of letting it run out", () => {
    const fitted = fitText(
      "Verkehrsverbundgesellschaftsmitgliederversammlung",
      { ...BOX, maxLines: 3 },
      halfEm,
    );
    expect(widest(fitted.lines, fitted.size)).toBeLessThanOrEqual(BOX.width);
    expect(fitted.lines.length).toBeLessThanOrEqual(3);
  });
});
