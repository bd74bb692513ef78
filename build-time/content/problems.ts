/**
 * What a content check reports, and how each problem becomes one line of text.
 */

export type Severity = "error" | "warning";

/** A place inside a YAML file: field names and list positions (0-based), e.g. ["offerings", 2, "headerStyle"]. */
export type ContentPath = readonly (string | number)[];

/** A problem found inside one file, before it is tied to a line number and a readable location. */
export interface Finding {
  severity: Severity;
  path: ContentPath;
  /** What is wrong and what is expected, written to follow "<field>: ". */
  message: string;
}

export interface ContentProblem {
  severity: Severity;
  /** The file as the editor sees it, e.g. "content/solutions.yaml". */
  file: string;
  /** 1-based line in the file, when the problem has a place in it. */
  line?: number;
  /** 1-based column, given for YAML syntax errors. */
  column?: number;
  /** Item and field, e.g. ['offering "OptiRun"', "headerStyle"]; empty for a problem with the whole file. */
  location: readonly string[];
  message: string;
}

export interface ContentCheckResult {
  errors: ContentProblem[];
  warnings: ContentProblem[];
  /** How many content files were read. */
  filesChecked: number;
}

/**
 * One line per problem:
 * `content/solutions.yaml:19 › offering "OptiRun" › headerStyle: "teel" is not a colour style …`
 * The `file:line` start is what editors and terminals turn into a clickable link.
 */
export function formatProblem(problem: ContentProblem): string {
  let place = problem.file;
  if (problem.line !== undefined) place += `:${problem.line}`;
  if (problem.line !== undefined && problem.column !== undefined) place += `:${problem.column}`;
  const where = problem.location.length > 0 ? ` › ${problem.location.join(" › ")}:` : " ›";
  return `${place}${where} ${problem.message}`;
}

/** The report printed by `npm run check:content` and by Gatsby: errors first, then warnings. */
export function formatReport(result: ContentCheckResult): string[] {
  const lines: string[] = [];
  const files = `${result.filesChecked} ${result.filesChecked === 1 ? "file" : "files"} checked`;
  if (result.errors.length > 0) {
    lines.push(
      `${count(result.errors.length, "content error")} (the site will not build until these are fixed):`,
    );
    lines.push(...result.errors.map((p) => `  ${formatProblem(p)}`));
  }
  if (result.warnings.length > 0) {
    lines.push(
      `${count(result.warnings.length, "content warning")} (the site still builds, but please take a look):`,
    );
    lines.push(...result.warnings.map((p) => `  ${formatProblem(p)}`));
  }
  if (result.errors.length > 0) {
    lines.push(
      `Content has errors: ${files}, ${count(result.errors.length, "error")}, ${count(result.warnings.length, "warning")}.`,
    );
  } else if (result.warnings.length > 0) {
    lines.push(`Content OK with ${count(result.warnings.length, "warning")}: ${files}.`);
  } else {
    lines.push(`Content OK: ${files}.`);
  }
  return lines;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
