/**
 * `npm run requests`: lists the meeting requests stored by the local backend, newest first.
 *
 *   npm run requests                 readable blocks for the terminal
 *   npm run requests -- --json       JSON array (exact text)
 *   npm run requests -- --csv        CSV (RFC 4180) for a spreadsheet
 *   npm run requests -- --data-dir PATH   (default .data/local-supabase, env LOCAL_BACKEND_DATA_DIR)
 *
 * Works whether or not `npm run backend` is running (see requests.ts for how).
 */
import path from "node:path";

import { LocalBackendError, oneLine } from "./errors";
import { defaultDataDir } from "./paths";
import { formatRequestsText, loadRequests, requestsToCsv, requestsToJson } from "./requests";

const USAGE = "Usage: npm run requests -- [--json | --csv] [--data-dir PATH]";

async function main(): Promise<number> {
  let format: "text" | "json" | "csv" = "text";
  let dataDir = process.env.LOCAL_BACKEND_DATA_DIR || defaultDataDir();
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg === "--json") format = "json";
    else if (arg === "--csv") format = "csv";
    else if (arg === "--data-dir" && argv[i + 1] !== undefined) dataDir = argv[++i]!;
    else if (arg.startsWith("--data-dir=")) dataDir = arg.slice("--data-dir=".length);
    else if (arg === "--help" || arg === "-h") {
      console.log(USAGE);
      return 0;
    } else {
      console.error(`Unknown option ${arg}.\n${USAGE}`);
      return 2;
    }
  }
  dataDir = path.resolve(dataDir);
  const { requests, source } = await loadRequests(dataDir);
  if (format === "json") process.stdout.write(requestsToJson(requests));
  else if (format === "csv") process.stdout.write(requestsToCsv(requests));
  else {
    if (source === "empty") console.error(`No local database in ${dataDir} yet (start it with \`npm run backend\`).`);
    process.stdout.write(formatRequestsText(requests));
  }
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof LocalBackendError ? error.message : `Could not list the requests: ${oneLine(error)}`);
    process.exitCode = 1;
  },
);
