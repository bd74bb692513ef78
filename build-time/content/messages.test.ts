import { closestMatch } from "./messages";

const FIELDS = ["name", "subtitle", "headerStyle", "highlights"];

// A swap of two neighbouring letters counts as one edit ("tael" → "teal", not "tell").
it.each<[string, string[], string | undefined]>([
  ["subtitel", FIELDS, "subtitle"],
  ["HeaderStyle", FIELDS, "headerStyle"],
  ["highlight", FIELDS, "highlights"],
  ["nmae", FIELDS, "name"],
  ["colour", FIELDS, undefined],
  ["x", [], undefined],
  ["tael", ["tell", "teal"], "teal"],
])("closestMatch(%j, %j) suggests %j", (typo, known, expected) => {
  expect(closestMatch(typo, known)).toBe(expected);
});
