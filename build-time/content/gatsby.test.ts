/**
 * The Gatsby wiring: build stops on errors (panicOnBuild), warnings never stop it, and during
 * `gatsby develop` a saved file is checked again without repeating what was already reported.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createContentWatcher, validateContentForGatsby, type ContentReporter } from "./gatsby";
import { validContentFolderPerTest } from "./valid-content-folder.test-support";


function fakeReporter() {
  const calls: Array<[string, string]> = [];
  const reporter: ContentReporter = {
    info: (text) => {
      calls.push(["info", String(text)]);
      return { type: "LOG_ACTION" } as unknown as ReturnType<ContentReporter["info"]>;
    },
    warn: (text) => {
      calls.push(["warn", String(text)]);
      return { type: "LOG_ACTION" } as unknown as ReturnType<ContentReporter["warn"]>;
    },
    panicOnBuild: (meta) => {
      calls.push(["panicOnBuild", String(meta)]);
      return [];
    },
  };
  return { reporter, calls };
}

const contentFolder = validContentFolderPerTest();

function edit(file: string, from: string, to: string): void {
  const full = path.join(contentFolder(), file);
  fs.writeFileSync(full, fs.readFileSync(full, "utf8").replace(from, to));
}

const fileNode = (name: string) => ({ internal: { type: "File" }, absolutePath: path.join(contentFolder(), name) });

describe("validateContentForGatsby", () => {
  it("says the content is fine and does not stop anything", () => {
    const { reporter, calls } = fakeReporter();
    validateContentForGatsby(reporter, contentFolder());
    expect(calls).toEqual([["info", "Content OK: 8 files checked."]]);
  });

  it("stops the build with every error in one message, after printing the warnings", () => {
    edit("solutions.yaml", "headerStyle: teal", "headerStyle: teel");
    edit("contact.yaml", "phone: (614) 555-0172", "phone: call us");
    edit("hero.yaml", "ctaLabel: Schedule Your Demo at CTAA", "ctaLabel: Schedule Your Personal Demo With Our Team at CTAA Expo");
    const { reporter, calls } = fakeReporter();
    const result = validateContentForGatsby(reporter, contentFolder());
    expect(result.errors).toHaveLength(2);
    expect(calls).toEqual([
      ["warn", "Content: content/hero.yaml:7 › ctaLabel: is 54 characters long; long button labels wrap onto two lines on phones. Aim for 40 or fewer."],
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

describe("createContentWatcher (gatsby develop)", () => {
  it("does not repeat at node creation what the start-up check already reported", () => {
    edit("hero.yaml", "ctaLabel: Schedule Your Demo at CTAA", "ctaLabel: Schedule Your Personal Demo With Our Team at CTAA Expo");
    const watcher = createContentWatcher(contentFolder());
    const { reporter, calls } = fakeReporter();
    watcher.checkAll(reporter);
    expect(calls).toHaveLength(2);
    expect(watcher.checkChangedFile(fileNode("hero.yaml"), reporter)).toBeUndefined();
    expect(calls).toHaveLength(2);
  });

  it("reports a broken save without stopping, then says when it is fixed", () => {
    const watcher = createContentWatcher(contentFolder());
    const { reporter, calls } = fakeReporter();
    watcher.checkAll(reporter);
    calls.length = 0;

    edit("meeting.yaml", "  - value: OptiRun\n", "  - value: MobilityDR\n");
    const problems = watcher.checkChangedFile(fileNode("meeting.yaml"), reporter);
    expect(problems).toHaveLength(1);
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
    edit("meeting.yaml", "  - value: MobilityDR\n    label: OptiRun", "  - value: OptiRun\n    label: OptiRun");
    expect(watcher.checkChangedFile(fileNode("meeting.yaml"), reporter)).toEqual([]);
    expect(calls).toEqual([["info", "Content: content/meeting.yaml has no errors any more."]]);
  });

  it("does not promise a previous version for a file that has had errors since the start", () => {
    edit("hero.yaml", "headline:", "headlin:");
    const watcher = createContentWatcher(contentFolder());
    const { reporter, calls } = fakeReporter();
    watcher.checkAll(reporter);
    calls.length = 0;
    edit("hero.yaml", "headlin:", "headlyne:");
    watcher.checkChangedFile(fileNode("hero.yaml"), reporter);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.[1]).toContain("content/hero.yaml");
    expect(calls[0]?.[1]).not.toContain("preview keeps showing");
  });

  it("reports a YAML syntax error with its line and column", () => {
    const watcher = createContentWatcher(contentFolder());
    const { reporter, calls } = fakeReporter();
    watcher.checkAll(reporter);
    calls.length = 0;
    edit("footer.yaml", "contactHeading: Contact", "contactHeading: Contact\n  oops: 1");
    watcher.checkChangedFile(fileNode("footer.yaml"), reporter);
    expect(calls[0]?.[1]).toContain("content/footer.yaml:15:7 › YAML syntax error:");
  });

  it("ignores pictures, other folders and nodes that are not files", () => {
    const watcher = createContentWatcher(contentFolder());
    const { reporter, calls } = fakeReporter();
    watcher.checkAll(reporter);
    calls.length = 0;
    expect(watcher.checkChangedFile(fileNode("images/share-card.png"), reporter)).toBeUndefined();
    expect(watcher.checkChangedFile({ internal: { type: "HeroContent" } }, reporter)).toBeUndefined();
    expect(watcher.checkChangedFile({ internal: { type: "File" }, absolutePath: path.join(os.tmpdir(), "x.yaml") }, reporter)).toBeUndefined();
    expect(calls).toEqual([]);
  });

  it("warns about a new YAML file the page does not read", () => {
    const watcher = createContentWatcher(contentFolder());
    const { reporter, calls } = fakeReporter();
    watcher.checkAll(reporter);
    calls.length = 0;
    fs.writeFileSync(path.join(contentFolder(), "pricing.yaml"), "plans: []\n");
    watcher.checkChangedFile(fileNode("pricing.yaml"), reporter);
    expect(calls).toEqual([
      ["warn", "Content: content/pricing.yaml › the page does not read this file, so its text will not appear. Run npm run check:content for details."],
    ]);
  });
});
