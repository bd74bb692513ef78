/**
 * What Gatsby hands gatsby-transformer-yaml (plugins/content-yaml): a file's checked data when it
 * passes the content check, else its last version that did.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { load } from "js-yaml";
import { createLastGoodContent } from "./last-good-content";
import { validContentFolderPerTest } from "./valid-content-folder.test-support";

const contentFolder = validContentFolderPerTest();

const read = (name: string) => fs.readFileSync(path.join(contentFolder(), name), "utf8");
const file = (name: string) => path.join(contentFolder(), name);
/** What the transformer reads from a text (undefined stays undefined). */
const meaning = (text: string | undefined) => (text === undefined ? undefined : load(text));

describe("createLastGoodContent", () => {
  it("passes a file without errors through as saved", () => {
    const lastGood = createLastGoodContent(contentFolder());
    const saved = read("hero.yaml").replace(/^headline: .*$/m, "headline: A new headline");
    expect(meaning(lastGood.textFor(file("hero.yaml"), saved))).toEqual(meaning(saved));
  });

  it("hands on an unquoted date as YYYY-MM-DD text and an unquoted booth number as typed, as a CMS writes them", () => {
    const lastGood = createLastGoodContent(contentFolder());
    const saved = read("expo.yaml").replace(/^startDate: .*$/m, "startDate: 2025-05-19").replace(/^booth: .*$/m, "booth: 0713");
    expect(meaning(lastGood.textFor(file("expo.yaml"), saved))).toMatchObject({ startDate: "2025-05-19", booth: "0713" });
  });

  it("replaces a save with a YAML syntax error by the file as it was on disk at start-up", () => {
    const original = read("hero.yaml");
    const lastGood = createLastGoodContent(contentFolder());
    expect(meaning(lastGood.textFor(file("hero.yaml"), original.replace(/^headline: .*$/m, 'headline: "unclosed')))).toEqual(meaning(original));
  });

  it("replaces a save with a missing field by the last version that passed, not the start-up one", () => {
    const original = read("hero.yaml");
    const lastGood = createLastGoodContent(contentFolder());
    const edited = original.replace(/^headline: .*$/m, "headline: Edited and fine");
    lastGood.textFor(file("hero.yaml"), edited);
    expect(meaning(lastGood.textFor(file("hero.yaml"), original.replace(/^headline: .*$/m, "")))).toEqual(meaning(edited));
  });

  it("keeps warnings: a long subtitle is not an error", () => {
    const lastGood = createLastGoodContent(contentFolder());
    const saved = read("hero.yaml").replace("ctaLabel: Schedule Your Demo at CTAA", "ctaLabel: Schedule Your Personal Demo With Our Team at CTAA Expo");
    expect(meaning(lastGood.textFor(file("hero.yaml"), saved))).toEqual(meaning(saved));
  });

  it("holds back a file that has had errors since start-up (nothing good to show)", () => {
    fs.writeFileSync(file("hero.yaml"), read("hero.yaml").replace("headline:", "headlin:"));
    const lastGood = createLastGoodContent(contentFolder());
    expect(lastGood.textFor(file("hero.yaml"), read("hero.yaml"))).toBeUndefined();
  });

  it("leaves files the page does not read alone", () => {
    const lastGood = createLastGoodContent(contentFolder());
    expect(lastGood.textFor(file("notes.yaml"), "not: [valid")).toBe("not: [valid");
    expect(lastGood.textFor(path.join(os.tmpdir(), "hero.yaml"), "x: [")).toBe("x: [");
  });
});
