/**
 * `npm run requests`: the stored meeting requests, newest first, whether or not the backend runs
 * (requests.ts), as text, `--json` or `--csv`; `--digest N` lists what digest #N lists;
 * `--restore` rebuilds a damaged database from the journal (docs/local-backend.md).
 */
import path from "node:path";

import { parseOptions, UsageError } from "./cli-args";
import { acquireDataLock } from "./data-lock";
import { restoreDataFolder } from "./data-folder";
import { LocalBackendError, oneLine } from "./errors";
import { localDataDir } from "./paths";
import { formatRequestsText, loadRequests, requestsInDigest, requestsToCsv } from "./requests";

const USAGE =
  "Usage: npm run requests -- [--json | --csv | --restore] [--digest N] [--data-dir PATH]";

/** Rebuilds the database from the journal, under the lock (refused while a backend runs). */
async function restore(dataDir: string): Promise<void> {
  const lock = await acquireDataLock(dataDir, "reader");
  try {
    const { restored, keptAt } = await restoreDataFolder(dataDir);
    console.log(
      `Restored ${restored} meeting request${restored === 1 ? "" : "s"} into a new database in ${dataDir}.` +
        (keptAt ? ` The previous database files were kept in ${keptAt}.` : ""),
    );
  } finally {
    await lock.release();
  }
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
  const digest = values.digest === undefined ? undefined : Number(values.digest);
  let problem: string | undefined;
  if ([values.json, values.csv, values.restore].filter(Boolean).length > 1)
    problem = "Choose one of --json, --csv and --restore.";
  else if (digest !== undefined && !(Number.isSafeInteger(digest) && digest > 0))
    problem = "--digest takes a digest's number, as its e-mail names it.";
  if (values.help || problem) {
    (problem ? console.error : console.log)([problem, USAGE].filter(Boolean).join("\n"));
    return problem ? 2 : 0;
  }
  const dataDir = path.resolve(values["data-dir"] ?? localDataDir());
  if (values.restore) return restore(dataDir).then(() => 0);
  const loaded = await loadRequests(dataDir);
  const requests =
    digest === undefined ? loaded.requests : requestsInDigest(loaded.requests, digest);
  if (values.json) process.stdout.write(`${JSON.stringify(requests, null, 2)}\n`);
  else if (values.csv) process.stdout.write(requestsToCsv(requests));
  else {
    if (loaded.source === "empty")
      console.error(`No local database in ${dataDir} yet (start it with \`npm run backend\`).`);
    const order =
      digest === undefined ? "newest first" : `in digest #${digest}, the likeliest real first`;
    process.stdout.write(formatRequestsText(requests, order));
  }
  return 0;
}

main().then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    console.error(
      error instanceof LocalBackendError
        ? error.message
        : `Could not list the requests: ${oneLine(error)}`,
    );
    process.exitCode = 1;
  },
);
