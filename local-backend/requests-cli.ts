/**
 * `npm run requests`: lists the meeting requests stored by the local backend, newest first.
 *
 *   npm run requests                 readable blocks for the terminal
 *   npm run requests -- --json       JSON array (exact text)
 *   npm run requests -- --csv        CSV (RFC 4180) for a spreadsheet
 *   npm run requests -- --digest N   the requests digest #N lists, in its order (the likeliest real first)
 *   npm run requests -- --data-dir PATH   (default .data/local-supabase, env LOCAL_BACKEND_DATA_DIR)
 *   npm run requests -- --restore    rebuild a damaged database from the journal (requests.jsonl)
 *
 * Works whether or not `npm run backend` is running (see requests.ts for how).
 */
import path from "node:path";

import { parseOptions, UsageError } from "./cli-args";
import { acquireDataLock } from "./data-lock";
import { restoreDataFolder } from "./data-folder";
import { LocalBackendError, oneLine } from "./errors";
import { localDataDir } from "./paths";
import {
  formatRequestsText,
  loadRequests,
  requestsInDigest,
  requestsToCsv,
  requestsToJson,
} from "./requests";

const USAGE =
  "Usage: npm run requests -- [--json | --csv | --restore] [--digest N] [--data-dir PATH]";

/** Rebuilds the database from the journal, under the lock (refused while a backend runs). */
async function restore(dataDir: string): Promise<number> {
  const lock = await acquireDataLock(dataDir, "reader");
  try {
    const { restored, keptAt } = await restoreDataFolder(dataDir);
    console.log(
      `Restored ${restored} meeting request${restored === 1 ? "" : "s"} into a new database in ${dataDir}.` +
        (keptAt ? ` The previous database files were kept in ${keptAt}.` : ""),
    );
  } finally {
    lock.release();
  }
  return 0;
}

async function main(): Promise<number> {
  let values;
  try {
    values = parseOptions(process.argv.slice(2), {
      json: { type: "boolean" },
      csv: { type: "boolean" },
      restore: { type: "boolean" },
      digest: { type: "string" },
      "data-dir": { type: "string" },
      help: { type: "boolean", short: "h" },
    });
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`${error.message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if ([values.json, values.csv, values.restore].filter(Boolean).length > 1) {
    console.error(`Choose one of --json, --csv and --restore.\n${USAGE}`);
    return 2;
  }
  const format = values.json ? "json" : values.csv ? "csv" : "text";
  const dataDir = path.resolve(values["data-dir"] ?? localDataDir());
  if (values.restore) return restore(dataDir);
  const digest = values.digest === undefined ? undefined : Number(values.digest);
  if (digest !== undefined && !(Number.isSafeInteger(digest) && digest > 0)) {
    console.error(`--digest takes a digest's number, as its e-mail names it.\n${USAGE}`);
    return 2;
  }
  const loaded = await loadRequests(dataDir);
  const { source } = loaded;
  const requests =
    digest === undefined ? loaded.requests : requestsInDigest(loaded.requests, digest);
  if (format === "json") process.stdout.write(requestsToJson(requests));
  else if (format === "csv") process.stdout.write(requestsToCsv(requests));
  else {
    if (source === "empty")
      console.error(`No local database in ${dataDir} yet (start it with \`npm run backend\`).`);
    process.stdout.write(
      formatRequestsText(
        requests,
        digest === undefined ? "newest first" : `in digest #${digest}, the likeliest real first`,
      ),
    );
  }
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(
      error instanceof LocalBackendError
        ? error.message
        : `Could not list the requests: ${oneLine(error)}`,
    );
    process.exitCode = 1;
  },
);
