/**
 * npm run check:content as a command: its exit code and its output.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { validContentFolderPerTest } from "../build-time/content/content-folder.test-support";

const ROOT = path.join(__dirname, "..");
const folder = validContentFolderPerTest();

function run() {
  const tsx = path.join(ROOT, "node_modules", ".bin", "tsx");
  const result = spawnSync(tsx, [path.join(ROOT, "tools", "check-content.ts")], {
    cwd: process.cwd(),
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

it("exits 0 with a one-line summary when the content is fine", () => {
  expect(run()).toEqual({ code: 0, stdout: "Content OK: 8 files checked.\n", stderr: "" });
});

it("exits 0 when there are only warnings, and lists them", () => {
  folder.edit(
    "solutions.yaml",
    "subtitle: Collaborative trip-exchange API platform",
    "subtitle: Collaborative trip-exchange API platform for every provider in your region",
  );
  expect(run()).toEqual({
    code: 0,
    stdout: [
      "1 content warning (the site still builds, but please take a look):",
      `  content/solutions.yaml:25 › offering "Trip Exchange" › subtitle: is 74 characters long; long subtitles wrap badly on phones. Aim for 60 or fewer.`,
      "Content OK with 1 warning: 8 files checked.",
      "",
    ].join("\n"),
    stderr: "",
  });
});

it("exits 1 and prints every error when the content is broken", () => {
  folder.edit("expo.yaml", 'booth: "713"', "booth:");
  folder.edit("footer.yaml", "contactHeading: Contact", "contactHeadng: Contact");
  expect(run()).toEqual({
    code: 1,
    stdout: "",
    stderr: [
      "2 content errors (the site will not build until these are fixed):",
      '  content/expo.yaml:8 › booth: has no value. Expected text, e.g. "713".',
      `  content/footer.yaml:14 › contactHeadng: is not a field the page knows here. Did you mean "contactHeading"? (contactHeading is required and missing.) Fields allowed here: platformsHeading, resourcesHeading, paperDownload, resources, contactHeading, milestonesLabel, milestoneLabels, rightsNotice, legalLinksLabel, legalLinks.`,
      "Content has errors: 8 files checked, 2 errors, 0 warnings.",
      "",
    ].join("\n"),
  });
});
