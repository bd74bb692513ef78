/**
 * Where `npm run report` reads the counters: a running local backend (its API, with the
 * service-role key it names in the data folder's server.json) or, when none runs, the data
 * folder itself under the lock, like `npm run requests`.
 */
import { readDataFolder } from "../../local-backend/data-folder";
import { LocalBackendError } from "../../local-backend/errors";
import { readSiteReport, type SiteReport } from "./report-data";

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
      "data-dir-in-use",
      `The local backend at ${url} refused the report (HTTP ${response.status} ${(await response.text()).slice(0, 200)}).`,
    );
  return (await response.json()) as SiteReport;
}

/** The report for [from, to], or undefined when the folder has no database yet. */
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
