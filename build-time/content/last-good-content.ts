/**
 * During `gatsby develop`, decides which text of a saved content file reaches the GraphQL layer.
 *
 * A file that passes the content check goes through as saved and is remembered. A file with
 * errors (a YAML typo, a missing field) is replaced by its last version without errors, so the
 * preview keeps showing the whole page while the terminal explains what to fix, instead of
 * Gatsby's own stack trace and an error overlay. A file that never passed is held back: the
 * check has already reported why, and `gatsby build` stops on it before sourcing anything.
 */
import path from "node:path";
import { checkContentFileText } from "./check-content";
import { readTextIfPresent, safeReadDir } from "./safe-fs";

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

  /** Undefined for a file the page does not read: nothing to protect there. */
  const passes = (file: string, text: string): boolean | undefined =>
    checkContentFileText(root, file, text)?.problems.every((problem) => problem.severity !== "error");

  for (const name of safeReadDir(root)) {
    const file = path.join(root, name);
    const text = readTextIfPresent(file);
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

