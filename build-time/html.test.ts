import { isExecutableScript } from "./html";

describe("isExecutableScript", () => {
  const script = (attributes: Record<string, string>): boolean =>
    isExecutableScript(new Map(Object.entries(attributes)));

  it.each([
    [{}],
    [{ type: "" }],
    [{ type: "text/javascript" }],
    [{ type: " TEXT/JavaScript " }],
    [{ type: "application/javascript" }],
    [{ type: "module" }],
    [{ type: "importmap" }],
    [{ type: "speculationrules" }],
    [{ language: "javascript" }],
    [{ language: "" }],
  ])("runs %j", (attributes) => {
    expect(script(attributes)).toBe(true);
  });

  it.each([
    [{ type: "application/ld+json" }],
    [{ type: "application/json" }],
    [{ type: "text/plain" }],
    [{ type: "text/javascript; charset=utf-8" }],
    [{ language: "vbscript" }],
  ])("treats %j as data", (attributes) => {
    expect(script(attributes)).toBe(false);
  });
});
