import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ContentReporter } from "./pipeline";

/** A reporter that records each call as [method, text]. */
export function fakeReporter(): { reporter: ContentReporter; calls: Array<[string, string]> } {
  const calls: Array<[string, string]> = [];
  const record = (method: string) => (text: unknown) => {
    calls.push([method, String(text)]);
    return undefined as never;
  };
  const reporter = {
    info: record("info"),
    warn: record("warn"),
    panicOnBuild: record("panicOnBuild"),
  };
  return { reporter, calls };
}

/**
 * Before each test, a private copy of the valid fixture as `<tmp>/content`, with the working folder
 * at `<tmp>` (as Gatsby runs in the project folder, so messages name "content/hero.yaml");
 * afterwards the working folder is restored and the copy removed.
 */
export function validContentFolderPerTest() {
  let dir = "";
  const cwd = process.cwd();
  beforeEach(() => {
    dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "content-")), "content");
    fs.cpSync(path.join(__dirname, "__fixtures__", "valid"), dir, { recursive: true });
    process.chdir(path.dirname(dir));
  });
  afterEach(() => {
    process.chdir(cwd);
    fs.rmSync(path.dirname(dir), { recursive: true, force: true });
  });
  const file = (name: string) => path.join(dir, name);
  const read = (name: string) => fs.readFileSync(file(name), "utf8");
  /** Replaces `from` in the file, which must hold it. */
  const edit = (name: string, from: string | RegExp, to: string) => {
    const text = read(name);
    if (typeof from === "string" ? !text.includes(from) : !from.test(text))
      throw new Error(`${String(from)} is not in ${name}`);
    fs.writeFileSync(file(name), text.replace(from, to));
  };
  return { dir: () => dir, file, read, edit };
}
