/**
 * The site-analytics report's data for `npm run report`, its tests and the e2e tests: what
 * public.site_analytics_report(from, to) returns, its date range, and where it is read. The text,
 * HTML and e-mail are the notification function's own (supabase/functions/notify-meeting-request/
 * report.ts), so the terminal shows the e-mail's text.
 */
import type { PGlite } from "@electric-sql/pglite";

import { readDataFolder } from "../../local-backend/data-folder";
import { LocalBackendError } from "../../local-backend/errors";
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

/**
 * The report for [from, to] from a running local backend (its API, with the service-role key it
 * names in the data folder's server.json) or, when none runs, from the data folder itself under
 * the lock, like `npm run requests`; undefined when the folder has no database yet.
 */
async function fromServer(
  url: string,
  serviceKey: string,
  from: string,
  to: string,
): Promise<SiteReport> {
  const response = await fetch(`${url}/rest/v1/rpc/site_analytics_report`, {
    method: "POST",
    headers: { apikey: serviceKey, "Content-Type": "application/json" },
    body: JSON.stringify({ from_day: from, to_day: to }),
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok)
    throw new LocalBackendError(
      `The local backend at ${url} refused the report (HTTP ${response.status} ${(await response.text()).slice(0, 200)}).`,
    );
  return (await response.json()) as SiteReport;
}

export function loadSiteReport(
  dataDir: string,
  from: string,
  to: string,
): Promise<SiteReport | undefined> {
  return readDataFolder(dataDir, {
    viaBackend: (url, serviceKey) => fromServer(url, serviceKey, from, to),
    fromFiles: (db) => readSiteReport(db, from, to),
  });
}
