/**
 * The one way a content file reaches the page in Gatsby (wired by plugins/content-yaml):
 *
 * - onPreBootstrap (`checkAll`): every file is checked before any content reaches the GraphQL
 *   layer; `gatsby build` stops on errors with one line per problem, `gatsby develop` prints them
 *   and keeps running.
 * - onCreateNode (`textFor`): each saved text is checked once, and gatsby-transformer-yaml is
 *   handed the data that check read, written as JSON (which YAML reads unchanged): text fields as
 *   typed, an unquoted date as "YYYY-MM-DD" (normalize.ts). So the check's parse is the only YAML
 *   parse, and the page gets exactly what the check saw. A save with errors is replaced by the
 *   file's last version without errors, so the preview keeps the whole page while the terminal
 *   says what to fix, instead of a js-yaml stack trace and an error overlay.
 *
 * Text already checked (at start-up, or a node Gatsby creates again for the same text) is neither
 * checked nor reported again.
 */
import path from "node:path";
import type { Reporter } from "gatsby";
import {
  checkContentFileText,
  checkContentFolder,
  displayDirFor,
  type FileCheck,
} from "./check-content";
import { formatProblem, type ContentCheckResult, type ContentProblem } from "./problems";
import { safeReadDir, readTextIfPresent } from "./safe-fs";

/** The part of Gatsby's reporter the pipeline uses (tests pass a fake). */
export type ContentReporter = Pick<Reporter, "info" | "warn" | "panicOnBuild">;

export interface ContentPipeline {
  /** For onPreBootstrap: checks every file, reports, and remembers each file's text and data. */
  checkAll(reporter: ContentReporter): ContentCheckResult;
  /**
   * For onCreateNode: the text gatsby-transformer-yaml should read for the file at `absolutePath`
   * whose saved text is `savedText`. For a file the page reads: its checked data as JSON, else
   * its last good data, else `undefined` (create no node: it has never passed). Any other file
   * is handed on as saved. A text not seen before is checked once and its problems reported.
   */
  textFor(absolutePath: string, savedText: string, reporter: ContentReporter): string | undefined;
  /** The data of the last version of a page file (by name, e.g. "hero") that passed the check. */
  lastGoodData(name: string): Record<string, unknown> | undefined;
}

/** What the pipeline remembers about one file the page reads. */
interface FileState {
  /** The text last checked; `undefined` when the file was missing at start-up. */
  text: string | undefined;
  hasErrors: boolean;
  /** The data of the last text without errors, as JSON; `undefined` while there was none. */
  lastGood: string | undefined;
}

const GUIDE = "See content/README.md for every field, or run npm run check:content.";

function errorMessage(errors: readonly ContentProblem[], note?: string): string {
  const heading = `${errors.length} content ${errors.length === 1 ? "error" : "errors"}: fix ${errors.length === 1 ? "it" : "them"} in the content folder and save.`;
  return [
    heading,
    ...errors.map((problem) => `  ${formatProblem(problem)}`),
    ...(note ? [note] : []),
    GUIDE,
  ].join("\n");
}

function report(
  reporter: ContentReporter,
  problems: readonly ContentProblem[],
  note?: string,
): void {
  for (const warning of problems.filter((problem) => problem.severity === "warning")) {
    reporter.warn(`Content: ${formatProblem(warning)}`);
  }
  const errors = problems.filter((problem) => problem.severity === "error");
  // In `gatsby build` this prints the message and stops the build; in `gatsby develop` it prints it.
  if (errors.length > 0) reporter.panicOnBuild(errorMessage(errors, note));
}

/** The checked data as JSON when the check found no errors. */
function goodData(check: FileCheck): string | undefined {
  const passed =
    check.data !== undefined && check.problems.every((problem) => problem.severity !== "error");
  return passed ? JSON.stringify(check.data) : undefined;
}

/**
 * One pipeline per Gatsby process. `checkAll` must run first: Gatsby restores unchanged nodes
 * from its cache after a restart without handing their files to onCreateNode again, so the first
 * save after a restart falls back on the version checked at start-up.
 */
export function createContentPipeline(contentDir: string): ContentPipeline {
  const root = path.resolve(contentDir);
  const pageFiles = new Map<string, FileState>();
  /** Other YAML files in the folder, by the text last warned about. */
  const otherFiles = new Map<string, string>();

  return {
    checkAll(reporter) {
      pageFiles.clear();
      otherFiles.clear();
      const { result, files } = checkContentFolder(root);
      for (const [file, check] of files) {
        const good = goodData(check);
        pageFiles.set(file, { text: check.source, hasErrors: good === undefined, lastGood: good });
      }
      for (const name of safeReadDir(root)) {
        const file = path.join(root, name);
        if (!pageFiles.has(file) && /\.ya?ml$/i.test(name))
          otherFiles.set(file, readTextIfPresent(file) ?? "");
      }

      report(reporter, [...result.errors, ...result.warnings]);
      if (result.errors.length === 0) {
        const warnings =
          result.warnings.length === 0
            ? ""
            : ` with ${result.warnings.length} warning${result.warnings.length === 1 ? "" : "s"}`;
        reporter.info(`Content OK${warnings}: ${result.filesChecked} files checked.`);
      }
      return result;
    },

    textFor(absolutePath, savedText, reporter) {
      const file = path.resolve(absolutePath);
      if (path.dirname(file) !== root || !/\.ya?ml$/i.test(file)) return savedText;

      const previous = pageFiles.get(file);
      if (previous?.text === savedText) return previous.lastGood;

      const check = checkContentFileText(root, file, savedText);
      if (!check) {
        if (otherFiles.get(file) !== savedText) {
          otherFiles.set(file, savedText);
          report(reporter, [
            {
              severity: "warning",
              file: `${displayDirFor(root)}/${path.basename(file)}`,
              location: [],
              message:
                "the page does not read this file, so its text will not appear. Run npm run check:content for details.",
            },
          ]);
        }
        return savedText;
      }

      const good = goodData(check);
      const lastGood = good ?? previous?.lastGood;
      const note = previous?.lastGood
        ? `Until then the preview keeps showing ${check.displayPath} as it was before this change.`
        : undefined;
      report(reporter, check.problems, note);
      if (good !== undefined && previous?.hasErrors)
        reporter.info(`Content: ${check.displayPath} has no errors any more.`);
      pageFiles.set(file, { text: savedText, hasErrors: good === undefined, lastGood });
      return lastGood;
    },

    lastGoodData(name) {
      const lastGood = pageFiles.get(path.join(root, `${name}.yaml`))?.lastGood;
      return lastGood === undefined ? undefined : (JSON.parse(lastGood) as Record<string, unknown>);
    },
  };
}
