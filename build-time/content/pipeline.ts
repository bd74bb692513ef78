/**
 * The one way a content file reaches the page in Gatsby (wired by plugins/content-yaml): `checkAll`
 * checks every file at onPreBootstrap (`gatsby build` stops on errors); `textFor` checks each saved
 * text once at onCreateNode and hands gatsby-transformer-yaml the checked data as JSON, or after a
 * save with errors the file's last good version. `checkAll` must run first: Gatsby restores
 * unchanged nodes from its cache without onCreateNode.
 */
import fs from "node:fs";
import path from "node:path";
import type { Reporter } from "gatsby";
import {
  checkContentDirectory,
  checkContentText,
  displayDirFor,
  otherYamlFiles,
  type FileCheck,
} from "./check-content";
import { contentFileSpec } from "./content-files";
import { count, formatProblem, type ContentCheckResult, type ContentProblem } from "./messages";

/** The part of Gatsby's reporter the pipeline uses (tests pass a fake). */
export type ContentReporter = Pick<Reporter, "info" | "warn" | "panicOnBuild">;

type FileState = {
  /** The text last checked; undefined when the file was missing at start-up. */
  text: string | undefined;
  hasErrors: boolean;
  /** The data of the last text without errors, as JSON. */
  lastGood: string | undefined;
};

function report(reporter: ContentReporter, problems: readonly ContentProblem[], note?: string) {
  for (const warning of problems.filter((problem) => problem.severity === "warning"))
    reporter.warn(`Content: ${formatProblem(warning)}`);
  const errors = problems.filter((problem) => problem.severity === "error");
  if (errors.length === 0) return;
  // `gatsby build` stops here; `gatsby develop` prints the message and goes on.
  reporter.panicOnBuild(
    [
      `${count(errors.length, "content error")}: fix ${errors.length === 1 ? "it" : "them"} in the content folder and save.`,
      ...errors.map((problem) => `  ${formatProblem(problem)}`),
      ...(note ? [note] : []),
      "See content/README.md for every field, or run npm run check:content.",
    ].join("\n"),
  );
}

/** The checked data as JSON when the check found no errors. */
function goodData(check: FileCheck): string | undefined {
  const passed = check.data && check.problems.every((problem) => problem.severity !== "error");
  return passed ? JSON.stringify(check.data) : undefined;
}

/** One pipeline per Gatsby process. */
export function createContentPipeline(contentDir: string) {
  const root = path.resolve(contentDir);
  const pageFiles = new Map<string, FileState>();
  /** YAML files the page does not read, by the text last warned about. */
  const otherFiles = new Map<string, string>();

  const displayPath = (file: string) => `${displayDirFor(root)}/${path.basename(file)}`;

  return {
    /** For onPreBootstrap: checks every file, reports, and remembers each file's text and data. */
    checkAll(reporter: ContentReporter): ContentCheckResult {
      pageFiles.clear();
      otherFiles.clear();
      const result = checkContentDirectory(root);
      for (const [file, check] of result.files) {
        const good = goodData(check);
        pageFiles.set(file, { text: check.source, hasErrors: !good, lastGood: good });
      }
      // The start-up check has warned about the YAML files the page does not read.
      for (const name of otherYamlFiles(root)) {
        const file = path.join(root, name);
        otherFiles.set(file, fs.readFileSync(file, "utf8"));
      }
      report(reporter, [...result.errors, ...result.warnings]);
      if (result.errors.length === 0) {
        const warnings =
          result.warnings.length > 0 ? ` with ${count(result.warnings.length, "warning")}` : "";
        reporter.info(`Content OK${warnings}: ${result.filesChecked} files checked.`);
      }
      return result;
    },

    /**
     * For onCreateNode: what gatsby-transformer-yaml reads for a saved file: a page file's checked
     * data as JSON, else its last good data, else undefined (no node); any other file as saved.
     */
    textFor(
      absolutePath: string,
      savedText: string,
      reporter: ContentReporter,
    ): string | undefined {
      const file = path.resolve(absolutePath);
      if (path.dirname(file) !== root || !/\.ya?ml$/i.test(file)) return savedText;
      const previous = pageFiles.get(file);
      if (previous?.text === savedText) return previous.lastGood;

      const spec = contentFileSpec(path.basename(file, ".yaml"));
      if (!spec) {
        if (otherFiles.get(file) !== savedText) {
          otherFiles.set(file, savedText);
          const message =
            "the page does not read this file, so its text will not appear. Run npm run check:content for details.";
          report(reporter, [
            { severity: "warning", file: displayPath(file), location: [], message },
          ]);
        }
        return savedText;
      }
      const where = { yamlPath: file, contentDir: root, displayPath: displayPath(file) };
      const check = checkContentText(spec, savedText, where);
      const good = goodData(check);
      const lastGood = good ?? previous?.lastGood;
      const note = previous?.lastGood
        ? `Until then the preview keeps showing ${where.displayPath} as it was before this change.`
        : undefined;
      report(reporter, check.problems, note);
      if (good && previous?.hasErrors)
        reporter.info(`Content: ${where.displayPath} has no errors any more.`);
      pageFiles.set(file, { text: savedText, hasErrors: !good, lastGood });
      return lastGood;
    },

    /** The data of the last version of a page file (by name, e.g. "hero") that passed the check. */
    lastGoodData(name: string): Record<string, unknown> | undefined {
      const lastGood = pageFiles.get(path.join(root, `${name}.yaml`))?.lastGood;
      return lastGood === undefined ? undefined : (JSON.parse(lastGood) as Record<string, unknown>);
    },
  };
}
