/**
 * The site-analytics report's data, shared by `npm run report`, its tests and the e2e tests: the
 * shape public.site_analytics_report(from, to) returns (supabase/migrations/20261124200000_site_analytics.sql),
 * and the date range. The text, the HTML and the e-mail are the notification function's own
 * (supabase/functions/notify-meeting-request/report.ts), so the terminal shows the e-mail's text.
 */
import type { PGlite } from "@electric-sql/pglite";

import type { SiteReport } from "../../supabase/functions/notify-meeting-request/payload.ts";

export type { SiteReport };

/** A date as YYYY-MM-DD (UTC, as the counters are kept). */
export function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

const DAY_MS = 86_400_000;

/** The default range: the last 7 days, today included (UTC). */
export function lastSevenDays(now: Date = new Date()): { from: string; to: string } {
  return { from: isoDate(new Date(now.getTime() - 6 * DAY_MS)), to: isoDate(now) };
}

/** Checks a YYYY-MM-DD date; returns the problem, or undefined. */
export function dateProblem(name: string, value: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || isoDate(new Date(`${value}T00:00:00Z`)) !== value) {
    return `${name} must be a date written YYYY-MM-DD, not ${JSON.stringify(value)}`;
  }
  return undefined;
}

/** The report straight from a database (as its owner: the local backend's files, or a test). */
export async function readSiteReport(
  db: Pick<PGlite, "query">,
  from: string,
  to: string,
): Promise<SiteReport> {
  const result = await db.query<{ report: SiteReport }>(
    "select public.site_analytics_report($1::date, $2::date) as report",
    [from, to],
  );
  return result.rows[0]!.report;
}
