/**
 * Decides which text of a content file reaches the GraphQL layer (gatsby develop and build).
 *
 * A file that passes the content check goes through as the data the check validated, written as
 * JSON (which YAML reads as it is): text fields exactly as typed, an unquoted date as "YYYY-MM-DD"
 * (normalize.ts), so the page gets what the check saw. A file with errors (a YAML typo, a missing
 * field) is replaced by its last version without errors, so the preview keeps showing the whole
 * page while the terminal explains what to fix, instead of Gatsby's own stack trace and an error
 * overlay. A file that never passed is held back: the check has already reported why, and
 * `gatsby build` stops on it before sourcing anything.
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

  /** The checked data as JSON, false when the file has errors, undefined for a file the page does not read. */
  const checked = (file: string, text: string): string | false | undefined => {
    const check = checkContentFileText(root, file, text);
    if (!check) return undefined;
    return check.data && check.problems.every((problem) => problem.severity !== "error") ? JSON.stringify(check.data) : false;
  };

  for (const name of safeReadDir(root)) {
    const file = path.join(root, name);
    const text = readTextIfPresent(file);
    const good = text === undefined ? undefined : checked(file, text);
    if (good) lastGood.set(file, good);
  }

  return {
    textFor(absolutePath, savedText) {
      const file = path.resolve(absolutePath);
      const verdict = checked(file, savedText);
      if (verdict === undefined) return savedText;
      if (verdict) {
        lastGood.set(file, verdict);
        return verdict;
      }
      return lastGood.get(file);
    },
  };
}

