/**
 * Where `npm run report` reads the counters: a running local backend (its loopback admin API,
 * with the token from the data folder's lock file, as the service role) or, when none runs, the
 * data folder itself under the lock, like `npm run requests`.
 */
import fs from "node:fs";

import { acquireDataLock, readLiveLock } from "../../local-backend/data-lock";
import { openDataFolder } from "../../local-backend/data-folder";
import { LocalBackendError } from "../../local-backend/errors";
import { pgDataDir } from "../../local-backend/paths";
import { readSiteReport, type SiteReport } from "./report-data";

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

/** The report for [from, to], or undefined when the folder has no database yet. */
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
