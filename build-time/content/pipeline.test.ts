/**
 * The content pipeline: the build stops on errors (panicOnBuild), warnings never stop it; during
 * `gatsby develop` a saved file is checked again without repeating what was already reported, and
 * gatsby-transformer-yaml is handed a file's checked data, else its last version that passed.
 * (plugins/content-yaml/gatsby-node.test.ts runs it through Gatsby's hooks.)
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse } from "yaml";
import { createContentPipeline } from "./pipeline";
import { fakeReporter, validContentFolderPerTest } from "./content-folder.test-support";

const { dir: contentFolder, file, read, edit } = validContentFolderPerTest();

/** A button label long enough for a warning, never an error. */
const LONG_CTA = [
  "ctaLabel: Schedule Your Demo at CTAA",
  "ctaLabel: Schedule Your Personal Demo With Our Team at CTAA Expo",
] as const;
const HEADLINE = /^headline: .*$/m;

/** What the transformer reads from a text (undefined stays undefined). */
const meaning = (text: string | undefined): unknown =>
  text === undefined ? undefined : parse(text);

/** A pipeline after its start-up check, with the start-up messages cleared. */
function started() {
  const pipeline = createContentPipeline(contentFolder());
  const { reporter, calls } = fakeReporter();
  pipeline.checkAll(reporter);
  calls.length = 0;
  const save = (name: string, text: string) => pipeline.textFor(file(name), text, reporter);
  return { pipeline, reporter, calls, save };
}

describe("checkAll (onPreBootstrap)", () => {
  // Fine content reports only "Content OK: 8 files checked.": plugins/content-yaml's test.
  it("stops the build with every error in one message, after printing the warnings", () => {
    edit("solutions.yaml", "headerStyle: teal", "headerStyle: teel");
    edit("contact.yaml", "phone: (614) 555-0172", "phone: call us");
    edit("hero.yaml", ...LONG_CTA);
    const { reporter, calls } = fakeReporter();
    expect(createContentPipeline(contentFolder()).checkAll(reporter).errors).toHaveLength(2);
    expect(calls).toEqual([
      [
        "warn",
        "Content: content/hero.yaml:7 › ctaLabel: is 54 characters long; long button labels wrap onto two lines on phones. Aim for 40 or fewer.",
      ],
      [
        "panicOnBuild",
        [
          "2 content errors: fix them in the content folder and save.",
          `  content/solutions.yaml:19 › offering "OptiRun" › headerStyle: "teel" is not a colour style the page defines. Did you mean "teal"? Use one of: ocean, teal, violet, amber, slate.`,
          `  content/contact.yaml:8 › phone: "call us" does not look like a phone number. Expected a phone number of 7 to 15 digits, written like (614) 555-0172 or +1 614 555 0172.`,
          "See content/README.md for every field, or run npm run check:content.",
        ].join("\n"),
      ],
    ]);
  });
});

describe("textFor (onCreateNode): what is reported", () => {
  it("reports a broken save without stopping, then says when it is fixed", () => {
    const { calls, save } = started();
    const broken = read("meeting.yaml").replace("  - value: OptiRun\n", "  - value: MobilityDR\n");
    save("meeting.yaml", broken);
    expect(calls).toEqual([
      [
        "panicOnBuild",
        [
          "1 content error: fix it in the content folder and save.",
          `  content/meeting.yaml:13 › product option "OptiRun (Scheduling Optimization)" › value: "MobilityDR" is already used by productOptions item 1. Each product needs its own value, because the value is what a meeting request saves.`,
          "Until then the preview keeps showing content/meeting.yaml as it was before this change.",
          "See content/README.md for every field, or run npm run check:content.",
        ].join("\n"),
      ],
    ]);
    calls.length = 0;
    const fixed = broken.replace(
      "value: MobilityDR\n    label: OptiRun",
      "value: OptiRun\n    label: OptiRun",
    );
    expect(meaning(save("meeting.yaml", fixed))).toEqual(meaning(fixed));
    expect(calls).toEqual([["info", "Content: content/meeting.yaml has no errors any more."]]);
  });

  it("hands on nothing, and promises no previous version, for a file with errors since the start", () => {
    edit("hero.yaml", "headline:", "headlin:");
    const { calls, save } = started();
    expect(save("hero.yaml", read("hero.yaml"))).toBeUndefined();
    expect(save("hero.yaml", read("hero.yaml").replace("headlin:", "headlyne:"))).toBeUndefined();
    expect(calls).toHaveLength(1);
    expect(calls[0]?.[1]).toContain("content/hero.yaml");
    expect(calls[0]?.[1]).not.toContain("preview keeps showing");
  });

  it("says a file missing at start-up has no errors any more once it is saved", () => {
    const hero = read("hero.yaml");
    fs.rmSync(file("hero.yaml"));
    const { calls, save } = started();
    expect(meaning(save("hero.yaml", hero))).toEqual(meaning(hero));
    expect(calls).toEqual([["info", "Content: content/hero.yaml has no errors any more."]]);
  });

  it("leaves pictures and files outside the content folder alone, without a word", () => {
    const { pipeline, reporter, calls } = started();
    expect(pipeline.textFor(file("images/share-card.png"), "PNG", reporter)).toBe("PNG");
    expect(pipeline.textFor(path.join(os.tmpdir(), "hero.yaml"), "x: [", reporter)).toBe("x: [");
    expect(calls).toEqual([]);
  });

  it("warns once about a new YAML file the page does not read, and hands it on as saved", () => {
    const { calls, save } = started();
    expect(save("pricing.yaml", "plans: []\n")).toBe("plans: []\n");
    expect(save("pricing.yaml", "plans: []\n")).toBe("plans: []\n");
    expect(calls).toEqual([
      [
        "warn",
        "Content: content/pricing.yaml › the page does not read this file, so its text will not appear. Run npm run check:content for details.",
      ],
    ]);
  });

  it("does not warn again at node creation about a file the start-up check warned about", () => {
    fs.writeFileSync(file("notes.yaml"), "not: [valid");
    const { calls, save } = started();
    expect(save("notes.yaml", "not: [valid")).toBe("not: [valid");
    expect(calls).toEqual([]);
  });
});

describe("textFor (onCreateNode): what gatsby-transformer-yaml gets", () => {
  it.each([
    ["passes a file without errors through as saved", HEADLINE, "headline: A new headline"],
    ["keeps warnings: a long button label is not an error", ...LONG_CTA],
  ])("%s", (_title, from, to) => {
    const saved = read("hero.yaml").replace(from, to);
    expect(meaning(started().save("hero.yaml", saved))).toEqual(meaning(saved));
  });

  it("replaces a save with a missing field by the last version that passed, not the start-up one", () => {
    const original = read("hero.yaml");
    const { save } = started();
    const edited = original.replace(HEADLINE, "headline: Edited and fine");
    save("hero.yaml", edited);
    expect(meaning(save("hero.yaml", original.replace(HEADLINE, "")))).toEqual(meaning(edited));
  });

  it("gives the last good version again when Gatsby hands on the same broken text twice", () => {
    const original = read("hero.yaml");
    const { calls, save } = started();
    const broken = original.replace(HEADLINE, "");
    save("hero.yaml", broken);
    expect(meaning(save("hero.yaml", broken))).toEqual(meaning(original));
    expect(calls).toHaveLength(1);
  });
});
