/**
 * During `gatsby develop`, decides which text of a saved content file reaches the GraphQL layer.
 *
 * A file that passes the content check goes through as saved and is remembered. A file with
 * errors (a YAML typo, a missing field) is replaced by its last version without errors, so the
 * preview keeps showing the whole page while the terminal explains what to fix, instead of
 * Gatsby's own stack trace and an error overlay. A file that never passed is held back: the
 * check has already reported why, and `gatsby build` stops on it before sourcing anything.
 */
import fs from "node:fs";
import path from "node:path";
import { checkContentSource, displayDirFor } from "./check-content";
import { contentFileSpec } from "./content-files";

export interface LastGoodContent {
  /** The text to parse for the file at `absolutePath`, or `undefined` to create no node for it yet. */
  textFor(absolutePath: string, savedText: string): string | undefined;
}

/**
 * Starts from the files as they are on disk now: Gatsby restores unchanged nodes from its cache
 * without handing their files to the transformer again, so the first save after a restart
 * must already have a good version to fall back on.
 */
export function createLastGoodContent(contentDir: string): LastGoodContent {
  const root = path.resolve(contentDir);
  const lastGood = new Map<string, string>();

  const passes = (file: string, text: string): boolean | undefined => {
    const spec = path.dirname(file) === root && path.extname(file) === ".yaml" ? contentFileSpec(path.basename(file, ".yaml")) : undefined;
    if (!spec) return undefined; // not a file the page reads: nothing to protect
    const displayPath = `${displayDirFor(root)}/${path.basename(file)}`;
    const { problems } = checkContentSource(spec, text, { yamlPath: file, contentDir: root, displayPath });
    return problems.every((problem) => problem.severity !== "error");
  };

  for (const name of readDir(root)) {
    const file = path.join(root, name);
    const text = readText(file);
    if (text !== undefined && passes(file, text)) lastGood.set(file, text);
  }

  return {
    textFor(absolutePath, savedText) {
      const file = path.resolve(absolutePath);
      const verdict = passes(file, savedText);
      if (verdict === undefined) return savedText;
      if (verdict) {
        lastGood.set(file, savedText);
        return savedText;
      }
      return lastGood.get(file);
    },
  };
}

function readDir(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}
