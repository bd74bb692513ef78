import { closestMatch } from "./messages";

const FIELDS = ["name", "subtitle", "headerStyle", "highlights"];

// "subtitel", "HeaderStyle" and "colour" among these fields: check-content.test.ts (unknown fields).
// A swap of two neighbouring letters counts as one edit ("tael" → "teal", not "tell").
it.each<[string, string[], string | undefined]>([
  ["highlight", FIELDS, "highlights"],
  ["nmae", FIELDS, "name"],
  ["x", [], undefined],
  ["tael", ["tell", "teal"], "teal"],
])("closestMatch(%j, %j) suggests %j", (typo, known, expected) => {
  expect(closestMatch(typo, known)).toBe(expected);
});
