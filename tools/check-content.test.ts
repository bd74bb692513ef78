/**
 * npm run check:content as a command: its exit code and its output.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const ROOT = path.join(__dirname, "..");
const TSX = path.join(ROOT, "node_modules", ".bin", "tsx");
const SCRIPT = path.join(ROOT, "tools", "check-content.ts");
const VALID = path.join(ROOT, "build-time", "content", "__fixtures__", "valid");

let workDir: string;

beforeEach(() => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), "check-content-cli-"));
  fs.cpSync(VALID, path.join(workDir, "content"), { recursive: true });
});

afterEach(() => fs.rmSync(workDir, { recursive: true, force: true }));

function run() {
  const result = spawnSync(TSX, [SCRIPT], { cwd: workDir, encoding: "utf8", timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function edit(file: string, from: string, to: string): void {
  const full = path.join(workDir, "content", file);
  fs.writeFileSync(full, fs.readFileSync(full, "utf8").replace(from, to));
}

it("exits 0 with a one-line summary when the content is fine", () => {
  expect(run()).toEqual({ code: 0, stdout: "Content OK: 8 files checked.\n", stderr: "" });
});

it("exits 0 when there are only warnings, and lists them", () => {
  edit(
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
  edit("expo.yaml", 'booth: "713"', "booth:");
  edit("footer.yaml", "contactHeading: Contact", "contactHeadng: Contact");
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
