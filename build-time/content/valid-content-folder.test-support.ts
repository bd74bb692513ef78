import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const VALID = path.join(__dirname, "__fixtures__", "valid");

/**
 * For tests: before each test, a private copy of the valid fixture as `<tmp>/content`, with the
 * working folder at `<tmp>` (as Gatsby runs in the project folder, so messages name
 * "content/hero.yaml"); afterwards the working folder is restored and the copy removed.
 * Returns a getter for the copy's path.
 */
export function validContentFolderPerTest(): () => string {
  let dir = "";
  const cwd = process.cwd();
  beforeEach(() => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), "content-"));
    dir = path.join(parent, "content");
    fs.cpSync(VALID, dir, { recursive: true });
    process.chdir(parent);
  });
  afterEach(() => {
    process.chdir(cwd);
    fs.rmSync(path.dirname(dir), { recursive: true, force: true });
  });
  return () => dir;
}
