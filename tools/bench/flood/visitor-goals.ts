/** The real visitors' figures in a flood run, and their goals for the run's case ("met"/"NOT met"). */
import { spread } from "../../lib/stats";
import { goal, line, type Run } from "./report";
import type { RealSubmission } from "./visitors";

const duration = (ms: number): string =>
  ms >= 120_000 ? `${(ms / 60_000).toFixed(1)} min` : `${(ms / 1000).toFixed(1)} s`;

export function printVisitors(run: Run): void {
  const { real, mail, options } = run;
  const expected = options.real;
  const rows = new Map(run.outcome.requests.map((row) => [row.email, row]));
  const reached = (visitor: RealSubmission) => mail.reached(visitor.email);
  const delay = (visitor: RealSubmission) => reached(visitor)!.at - visitor.tappedAt;
  /** Toast → one-by-one e-mail ≤ 60 s. */
  const quick = (visitor: RealSubmission) => {
    const at = reached(visitor);
    return at?.by === "one by one" && !!visitor.toastAt && at.at - visitor.toastAt <= 60_000;
  };
  /** Tap → reaching staff (e-mail or digest) within the wait. */
  const inTime = (visitor: RealSubmission) =>
    !!reached(visitor) && delay(visitor) <= options.waitMinutes * 60_000;
  const decision = (visitor: RealSubmission) => {
    const row = rows.get(visitor.email);
    return row ? (row.budget ?? `${row.verdict} (${row.proof})`) : "not stored";
  };
  /** "met/of; missed: #n why" for the goals. */
  const count = (list: RealSubmission[], test: (visitor: RealSubmission) => boolean) => {
    const missed = list
      .filter((visitor) => !test(visitor))
      .map((v) => `#${v.index + 1} ${decision(v)}${v.toastAt === undefined ? ", no toast" : ""}`);
    return `${list.filter(test).length}/${list.length}${missed.length ? `; missed: ${missed.join(", ")}` : ""}`;
  };

  console.log(
    `Real visitors through the page (Chromium from 127.0.0.1): ${real.length} of ${expected}`,
  );
  line("success toast shown", `${real.filter((v) => v.toastAt !== undefined).length}/${expected}`);
  const stored = real.filter((visitor) => rows.has(visitor.email)).length;
  line("stored", `${stored}/${expected}`);
  const refused = real.filter((v) => v.insertStatuses.some((s) => s === 0 || s >= 400)).length;
  line("refused (an insert answered ≥ 400 or not at all)", refused === 0 ? "none" : `${refused}`);
  const one = real.filter((visitor) => reached(visitor)?.by === "one by one");
  line(
    "e-mailed one by one",
    `${one.length}/${expected}${one.length ? `; tap → e-mail ${spread(one.map(delay), duration, [50])}; within 60 s of the toast: ${one.filter(quick).length}/${one.length}` : ""}`,
  );
  const digest = real.filter((visitor) => reached(visitor)?.by === "digest");
  line(
    "reached staff only through a digest",
    `${digest.length}/${expected}${digest.length ? `; tap → digest ${spread(digest.map(delay), duration, [50])}; within ${options.waitMinutes} min: ${digest.filter(inTime).length}/${digest.length}` : ""}`,
  );
  const missing = real.filter((visitor) => !reached(visitor));
  line(
    "not reached staff by the end of the wait",
    missing
      .map((v) => `#${v.index + 1} (${rows.get(v.email)?.notification ?? "not stored"})`)
      .join(", ") || "none",
  );
  const errors = real.filter((visitor) => visitor.error);
  if (errors.length > 0)
    line("browser errors", errors.map((v) => `#${v.index + 1}: ${v.error}`).join("; "));

  const all = real.length === expected;
  if (options.mode === "venue") {
    goal(
      `all ${expected} stored, none refused`,
      stored === expected && refused === 0,
      `stored ${stored}, refused ${refused}`,
    );
    const first = real.slice(0, 20);
    goal(
      `the first ${first.length} e-mailed one by one within 60 s of the toast`,
      first.length === Math.min(20, expected) && first.every(quick),
      count(first, quick),
    );
    goal(
      `every one reaches staff within ${options.waitMinutes} min, listed individually`,
      all && real.every(inTime),
      count(real, inTime),
    );
  } else if (options.mode === "solving" && options.addresses > 1) {
    goal(
      `every real visitor reaches staff within ${options.waitMinutes} min, listed individually`,
      all && real.every(inTime),
      count(real, inTime),
    );
  } else {
    goal(
      "every real visitor e-mailed one by one within 60 s of its toast",
      all && real.every(quick),
      count(real, quick),
    );
  }
}
