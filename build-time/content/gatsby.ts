/**
 * Wires the content check into Gatsby (see gatsby-node.ts):
 * - onPreBootstrap: every file is checked before any content reaches the GraphQL layer;
 *   `gatsby build` stops on errors, `gatsby develop` prints them and keeps running.
 * - onCreateNode: during `gatsby develop`, a saved content file is checked again and its
 *   problems are printed in the terminal; the server keeps running so the next save can fix it.
 */
import path from "node:path";
import type { Reporter } from "gatsby";
import { checkContentDirectory, checkContentFileText, displayDirFor } from "./check-content";
import { formatProblem, type ContentCheckResult, type ContentProblem } from "./problems";
import { readTextIfPresent, safeReadDir } from "./safe-fs";

/** The part of Gatsby's reporter the check uses (tests pass a fake). */
export type ContentReporter = Pick<Reporter, "info" | "warn" | "panicOnBuild">;

const GUIDE = "See content/README.md for every field, or run npm run check:content.";

function errorMessage(errors: readonly ContentProblem[], note?: string): string {
  const heading = `${errors.length} content ${errors.length === 1 ? "error" : "errors"}: fix ${errors.length === 1 ? "it" : "them"} in the content folder and save.`;
  return [heading, ...errors.map((problem) => `  ${formatProblem(problem)}`), ...(note ? [note] : []), GUIDE].join("\n");
}

function report(reporter: ContentReporter, problems: readonly ContentProblem[], note?: string): void {
  for (const warning of problems.filter((problem) => problem.severity === "warning")) {
    reporter.warn(`Content: ${formatProblem(warning)}`);
  }
  const errors = problems.filter((problem) => problem.severity === "error");
  // In `gatsby build` this prints the message and stops the build; in `gatsby develop` it prints it.
  if (errors.length > 0) reporter.panicOnBuild(errorMessage(errors, note));
}

/** Checks the whole content folder once. Returns the result so callers can test it. */
export function validateContentForGatsby(reporter: ContentReporter, contentDir: string): ContentCheckResult {
  const result = checkContentDirectory(contentDir);
  report(reporter, [...result.errors, ...result.warnings]);
  if (result.errors.length === 0) {
    const warnings = result.warnings.length === 0 ? "" : ` with ${result.warnings.length} warning${result.warnings.length === 1 ? "" : "s"}`;
    reporter.info(`Content OK${warnings}: ${result.filesChecked} files checked.`);
  }
  return result;
}

/** The fields of a File node this module reads (gatsby-source-filesystem sets them). */
interface FileNodeLike {
  internal: { type: string };
  absolutePath?: unknown;
}

export interface ContentWatcher {
  /** For onPreBootstrap: checks every file and remembers what was checked. */
  checkAll(reporter: ContentReporter): ContentCheckResult;
  /**
   * For onCreateNode: when the node is a content YAML file whose text changed since it was
   * last checked, checks it and reports. Returns the problems found, or `undefined` if skipped.
   */
  checkChangedFile(node: FileNodeLike, reporter: ContentReporter): ContentProblem[] | undefined;
}

/**
 * One watcher per Gatsby process. Remembering each file's last checked text avoids reporting
 * the same problems twice: once in onPreBootstrap, again when Gatsby creates the file's node.
 */
export function createContentWatcher(contentDir: string): ContentWatcher {
  const root = path.resolve(contentDir);
  const checkedText = new Map<string, string>();
  const hadErrors = new Set<string>();
  // Files that had no errors at some point: the preview keeps showing that version
  // (plugins/content-yaml) while a later save has errors.
  const passedOnce = new Set<string>();

  return {
    checkAll(reporter) {
      checkedText.clear();
      hadErrors.clear();
      passedOnce.clear();
      for (const name of safeReadDir(root)) {
        const file = path.join(root, name);
        const text = readTextIfPresent(file);
        if (text !== undefined) checkedText.set(file, text);
      }
      const result = validateContentForGatsby(reporter, root);
      for (const problem of result.errors) hadErrors.add(path.join(root, path.posix.basename(problem.file)));
      for (const file of checkedText.keys()) if (!hadErrors.has(file)) passedOnce.add(file);
      return result;
    },

    checkChangedFile(node, reporter) {
      if (node.internal.type !== "File" || typeof node.absolutePath !== "string") return undefined;
      const file = path.resolve(node.absolutePath);
      if (path.dirname(file) !== root || !/\.ya?ml$/i.test(file)) return undefined;
      const text = readTextIfPresent(file);
      if (text === undefined || checkedText.get(file) === text) return undefined;
      checkedText.set(file, text);

      const check = checkContentFileText(root, file, text);
      if (!check) {
        const problem: ContentProblem = {
          severity: "warning",
          file: `${displayDirFor(root)}/${path.basename(file)}`,
          location: [],
          message: "the page does not read this file, so its text will not appear. Run npm run check:content for details.",
        };
        report(reporter, [problem]);
        return [problem];
      }
      const { problems, displayPath } = check;
      const note = passedOnce.has(file) ? `Until then the preview keeps showing ${displayPath} as it was before this change.` : undefined;
      report(reporter, problems, note);
      if (problems.some((problem) => problem.severity === "error")) {
        hadErrors.add(file);
      } else {
        passedOnce.add(file);
        if (hadErrors.delete(file)) reporter.info(`Content: ${displayPath} has no errors any more.`);
      }
      return problems;
    },
  };
}

