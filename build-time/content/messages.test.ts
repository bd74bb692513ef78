import { closestMatch } from "./messages";

describe("closestMatch", () => {
  const fields = ["name", "subtitle", "headerStyle", "highlights"];

  it.each([
    ["subtitel", "subtitle"],
    ["HeaderStyle", "headerStyle"],
    ["highlight", "highlights"],
    ["nmae", "name"],
  ])("suggests %s → %s", (typo, expected) => {
    expect(closestMatch(typo, fields)).toBe(expected);
  });

  it("suggests nothing for a name that is not close to any field", () => {
    expect(closestMatch("colour", fields)).toBeUndefined();
    expect(closestMatch("x", [])).toBeUndefined();
  });

  it("counts a swap of two neighbouring letters as one edit", () => {
    expect(closestMatch("tael", ["tell", "teal"])).toBe("teal");
  });
});
