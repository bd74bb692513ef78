/**
 * The figures of a run and its goals, "met" or "NOT met" from the measured numbers: reporting,
 * not asserting (the bench exits 0 whatever they say).
 */
import type { FloodOptions } from "./options";
import type { StaffMail } from "./staff-mail";
import type { ScreeningSettingsRow, StoredRequest, WaitOutcome } from "./stored";
import type { RealSubmission } from "./visitor";

export interface RunRecord {
  options: FloodOptions;
  /** Date.now() when the load started. */
  startedAt: number;
  settings: ScreeningSettingsRow;
  mail: StaffMail;
  outcome: WaitOutcome;
  deadline: number;
  attackerKeys: Set<string>;
  real: RealSubmission[];
}

const f = (n: number): string => Math.round(n).toLocaleString("en-US");
const seconds = (ms: number): string =>
  ms >= 120_000 ? `${(ms / 60_000).toFixed(1)} min` : `${(ms / 1000).toFixed(1)} s`;
const since = (record: RunRecord, at: number): string => {
  const s = Math.round((at - record.startedAt) / 1000);
  return `+${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")} (${new Date(at).toISOString().slice(11, 19)} UTC)`;
};
const verdict = (met: boolean): string => (met ? "met" : "NOT met");
export const line = (label: string, value: string): void =>
  console.log(`  ${`${label}:`.padEnd(42)} ${value}`);
export const goal = (text: string, met: boolean, why: string): void =>
  console.log(`  GOAL ${text}: ${verdict(met)} (${why})`);

function quantiles(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const p50 = sorted[Math.max(0, Math.ceil(sorted.length / 2) - 1)]!;
  return `p50 ${seconds(p50)}, max ${seconds(sorted[sorted.length - 1]!)}`;
}

export function attackerRequests(record: RunRecord): StoredRequest[] {
  return record.outcome.requests.filter(
    (request) => request.clientKey !== null && record.attackerKeys.has(request.clientKey),
  );
}

/** Staff e-mails caused by the attack: one-by-one to an attacker's address, and digests listing one. */
export function attackMail(record: RunRecord): { singles: number; digests: number; total: number } {
  const emails = new Set(attackerRequests(record).map((request) => request.email));
  const singles = record.mail.singles.filter((single) => emails.has(single.email)).length;
  const digests = record.mail.digests.filter((digest) =>
    digest.listed.some((email) => emails.has(email)),
  ).length;
  return { singles, digests, total: singles + digests };
}

/** The common tail of every attacker block: rows, staff e-mails (with the goal), the digests. */
export function attackOutcome(record: RunRecord, mailGoal: number, rowsGoal?: number): void {
  const rows = attackerRequests(record);
  const mails = attackMail(record);
  const byBudget = new Map<string, number>();
  for (const row of rows) {
    const key = row.budget ?? `${row.verdict ?? "?"} (${row.proof ?? "?"})`;
    byBudget.set(key, (byBudget.get(key) ?? 0) + 1);
  }
  line(
    "rows stored from the attacker",
    `${f(rows.length)}  (${[...byBudget].map(([key, n]) => `${key} ${n}`).join(", ")})`,
  );
  line(
    "staff e-mails caused by the attack",
    `${mails.total}  (${mails.singles} one by one, ${mails.digests} digest${mails.digests === 1 ? "" : "s"} listing attacker requests)`,
  );
  const unlisted = record.outcome.unlisted.filter((request) => rows.includes(request)).length;
  if (unlisted > 0)
    line(
      "attacker requests in a digest but not listed",
      `${f(unlisted)} (past digest_list_limit ${record.settings.digest_list_limit})`,
    );
  if (rowsGoal !== undefined)
    goal(`≤ ${rowsGoal} rows stored from the attacker`, rows.length <= rowsGoal, `${rows.length}`);
  goal(
    `≤ ${mailGoal} staff e-mails caused by the attack, digests included`,
    mails.total <= mailGoal,
    `${mails.total}`,
  );
}

export function digestLines(record: RunRecord): void {
  const attacker = new Set(attackerRequests(record).map((request) => request.email));
  const real = new Set(record.real.map((submission) => submission.email));
  if (record.mail.digests.length === 0) line("digests", "none");
  record.mail.digests.forEach((digest, index) => {
    const a = digest.listed.filter((email) => attacker.has(email)).length;
    const r = digest.listed.filter((email) => real.has(email)).length;
    line(
      `digest ${index + 1}`,
      `${since(record, digest.at)}: lists ${digest.listed.length} (attacker ${a}, real visitors ${r}); "${digest.subject}"`,
    );
  });
}

interface VisitorFigures {
  stored: number;
  refused: number;
  oneByOne: RealSubmission[];
  digestOnly: RealSubmission[];
  /** Toast → one-by-one e-mail ≤ 60 s. */
  quick: (submission: RealSubmission) => boolean;
  /** Tap → reaching staff (e-mail or digest) ≤ the wait (20 min). */
  inTime: (submission: RealSubmission) => boolean;
}

function visitorFigures(record: RunRecord): VisitorFigures {
  const rows = new Map(record.outcome.requests.map((request) => [request.email, request]));
  const reached = (submission: RealSubmission) => record.mail.reached(submission.email);
  const waitMs = record.options.waitMinutes * 60_000;
  return {
    stored: record.real.filter((submission) => rows.has(submission.email)).length,
    refused: record.real.filter((submission) =>
      submission.insertStatuses.some((status) => status === 0 || status >= 400),
    ).length,
    oneByOne: record.real.filter((submission) => reached(submission)?.by === "one by one"),
    digestOnly: record.real.filter((submission) => reached(submission)?.by === "digest"),
    quick: (submission) => {
      const at = reached(submission);
      return (
        at?.by === "one by one" &&
        submission.toastAt !== undefined &&
        at.at - submission.toastAt <= 60_000
      );
    },
    inTime: (submission) => {
      const at = reached(submission);
      return at !== undefined && at.at - submission.tappedAt <= waitMs;
    },
  };
}

/** The real visitors' block; returns the figures for the goals. */
export function visitorBlock(
  record: RunRecord,
  expected: number,
  headerDifferences: string[] | undefined,
): VisitorFigures {
  const figures = visitorFigures(record);
  const real = record.real;
  const rows = new Map(record.outcome.requests.map((request) => [request.email, request]));
  const delay = (submission: RealSubmission) =>
    record.mail.reached(submission.email)!.at - submission.tappedAt;
  console.log(
    `Real visitors through the page (Chromium from 127.0.0.1): ${real.length} of ${expected}`,
  );
  line(
    "success toast shown",
    `${real.filter((submission) => submission.toastAt !== undefined).length}/${expected}`,
  );
  const verified = real.filter(
    (submission) => rows.get(submission.email)?.verdict === "page-verified",
  ).length;
  const solved = real.filter((submission) => submission.proof === "solved").length;
  line(
    "stored",
    `${figures.stored}/${expected}  (page-verified ${verified}; sent with a solved proof ${solved}, with a pending ticket ${real.length - solved})`,
  );
  line(
    "refused (an insert answered ≥ 400 or not at all)",
    figures.refused === 0 ? "none" : `${figures.refused}`,
  );
  const budgets = new Map<string, number>();
  for (const submission of real) {
    const key =
      rows.get(submission.email)?.budget ?? rows.get(submission.email)?.verdict ?? "not stored";
    budgets.set(key, (budgets.get(key) ?? 0) + 1);
  }
  line("budget decisions", [...budgets].map(([key, n]) => `${key} ${n}`).join(", "));
  const marked = real.filter((submission) =>
    rows.get(submission.email)?.signals?.includes("repeated-text"),
  ).length;
  if (marked > 0) line("marked repeated-text (orders a digest only)", `${marked}`);
  const one = figures.oneByOne;
  line(
    "e-mailed one by one",
    `${one.length}/${expected}${one.length ? `; tap → e-mail ${quantiles(one.map(delay))}; within 60 s of the toast: ${one.filter(figures.quick).length}/${one.length}` : ""}`,
  );
  const digest = figures.digestOnly;
  line(
    "reached staff only through a digest",
    `${digest.length}/${expected}${digest.length ? `; tap → digest ${quantiles(digest.map(delay))}; within ${record.options.waitMinutes} min: ${digest.filter(figures.inTime).length}/${digest.length}` : ""}`,
  );
  const missing = real.filter((submission) => !record.mail.reached(submission.email));
  line(
    "not reached staff by the end of the wait",
    missing.length === 0
      ? "none"
      : missing
          .map(
            (submission) =>
              `#${submission.index + 1} (${rows.get(submission.email)?.notification ?? "not stored"})`,
          )
          .join(", "),
  );
  const errors = real.filter((submission) => submission.error);
  if (errors.length > 0)
    line(
      "browser errors",
      errors.map((submission) => `#${submission.index + 1}: ${submission.error}`).join("; "),
    );
  if (headerDifferences)
    line(
      "attacker's insert headers vs the page's",
      headerDifferences.length === 0 ? "the same" : headerDifferences.join("; "),
    );
  return figures;
}

/** The real visitors' goals for the run's case. */
export function visitorGoals(record: RunRecord, figures: VisitorFigures, expected: number): void {
  const real = record.real;
  const minutes = record.options.waitMinutes;
  const allQuick = real.length === expected && real.every(figures.quick);
  const allInTime = real.length === expected && real.every(figures.inTime);
  const rows = new Map(record.outcome.requests.map((request) => [request.email, request]));
  // Those that missed: their number (1-based) and why, from the database's decision.
  const count = (list: RealSubmission[], test: (submission: RealSubmission) => boolean) => {
    const missed = list
      .filter((submission) => !test(submission))
      .map((submission) => {
        const row = rows.get(submission.email);
        const toast = submission.toastAt === undefined ? ", no toast" : "";
        return `#${submission.index + 1} ${row ? (row.budget ?? `${row.verdict} (${row.proof})`) : "not stored"}${toast}`;
      });
    return `${list.filter(test).length}/${list.length}${missed.length ? `; missed: ${missed.join(", ")}` : ""}`;
  };
  if (record.options.mode === "venue") {
    goal(
      `all ${expected} stored, none refused`,
      figures.stored === expected && figures.refused === 0,
      `stored ${figures.stored}, refused ${figures.refused}`,
    );
    const first = real.slice(0, 20);
    goal(
      `the first ${first.length} e-mailed one by one within 60 s of the toast`,
      first.length === Math.min(20, expected) && first.every(figures.quick),
      count(first, figures.quick),
    );
    goal(
      `every one reaches staff within ${minutes} min, listed individually`,
      allInTime,
      count(real, figures.inTime),
    );
  } else if (record.options.mode === "solving" && record.options.addresses > 1) {
    goal(
      `every real visitor reaches staff within ${minutes} min, listed individually`,
      allInTime,
      count(real, figures.inTime),
    );
  } else {
    goal(
      "every real visitor e-mailed one by one within 60 s of its toast",
      allQuick,
      count(real, figures.quick),
    );
  }
}

/** The settings in force and how the wait ended. */
export function settingsAndWait(record: RunRecord): void {
  const s = record.settings;
  console.log(
    `Settings: one by one ${s.one_by_one_per_address_burst} at once per address then one every ${s.one_by_one_refill_seconds} s, ${s.one_by_one_per_address}/address and ${s.one_by_one_in_all} in all per ${s.window_seconds} s; ` +
      `unproved ${s.unproved_per_address}/address, ${s.unproved_in_all} in all; challenges ${s.challenges_at_base_difficulty} at ${f(s.base_difficulty)}, ×2 every ${s.challenges_per_doubling}, none past ${s.challenges_per_address}; ` +
      `digest at most every ${s.digest_interval_seconds} s (the local digest job looks every 60 s), listing up to ${s.digest_list_limit}; hold for proof ${s.hold_for_proof_seconds} s.`,
  );
  const { outcome } = record;
  const reached = outcome.requests.length - outcome.waiting.length - outcome.unlisted.length;
  const how =
    outcome.waiting.length === 0
      ? "every stored request had reached staff or been in a digest already sent"
      : `the deadline (${record.options.waitMinutes} min after the last submission) came`;
  console.log(
    `Wait: ended at ${since(record, outcome.endedAt)}, when ${how}; ${reached}/${outcome.requests.length} stored requests reached staff, ${outcome.waiting.length} still waiting, ${outcome.unlisted.length} in a digest without being listed.`,
  );
}
