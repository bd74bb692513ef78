/**
 * The site-analytics report's data for `npm run report`, its tests and the e2e tests: what
 * public.site_analytics_report(from, to) returns, its date range, and where it is read. The text,
 * HTML and e-mail are the notification function's own (supabase/functions/notify-meeting-request/
 * report.ts), so the terminal shows the e-mail's text.
 */
import fs from "node:fs";

import type { PGlite } from "@electric-sql/pglite";

import { acquireDataLock, readLiveLock } from "../../local-backend/data-lock";
import { openDataFolder } from "../../local-backend/data-folder";
import { LocalBackendError } from "../../local-backend/errors";
import { pgDataDir } from "../../local-backend/paths";
import type { SiteReport } from "../../supabase/functions/notify-meeting-request/report.ts";

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
 * The report for [from, to] from a running local backend (its loopback admin API, with the token
 * from the data folder's lock file, as the service role) or, when none runs, from the data folder
 * itself under the lock, like `npm run requests`; undefined when the folder has no database yet.
 */
async function fromServer(
  url: string,
  adminToken: string,
  from: string,
  to: string,
): Promise<SiteReport> {
  const response = await fetch(`${url}/local-admin/rpc/site_analytics_report`, {
    method: "POST",
    headers: { Authorization: `Bearer ${adminToken}`, "Content-Type": "application/json" },
    body: JSON.stringify({ from_day: from, to_day: to }),
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok)
    throw new LocalBackendError(
      "data-dir-in-use",
      `The local backend at ${url} refused the report (HTTP ${response.status} ${(await response.text()).slice(0, 200)}).`,
    );
  return (await response.json()) as SiteReport;
}

export async function loadSiteReport(
  dataDir: string,
  from: string,
  to: string,
): Promise<SiteReport | undefined> {
  const live = readLiveLock(dataDir);
  if (live?.holder === "server" && live.url && live.adminToken)
    return fromServer(live.url, live.adminToken, from, to);
  if (!fs.existsSync(pgDataDir(dataDir))) return undefined;
  const lock = await acquireDataLock(dataDir, "reader");
  try {
    const { db, journal } = await openDataFolder(dataDir, undefined);
    try {
      return await readSiteReport(db, from, to);
    } finally {
      journal.close();
      await db.close();
    }
  } finally {
    lock.release();
  }
}
