/**
 * `npm run backend`: starts the embedded local backend (see server.ts and README.md).
 *
 *   npm run backend -- [--port 54321] [--data-dir .data/local-supabase] [--in-memory] [--quiet]
 *
 * Environment: LOCAL_BACKEND_PORT, LOCAL_BACKEND_DATA_DIR.
 * Prints `Local backend ready at http://127.0.0.1:PORT` once it accepts requests, so other
 * scripts can run it as a child process and wait for that line; on failure it prints one
 * line to stderr and exits with status 1 (2 for bad arguments).
 */
import { parseCliArgs, UsageError, USAGE, type CliOptions } from "./cli-args";
import { LocalBackendError, oneLine } from "./errors";
import { localNotificationOptions } from "./notifications/settings";
import { startLocalBackend, type LocalBackend } from "./server";

async function main(): Promise<void> {
  let options: CliOptions;
  try {
    options = parseCliArgs(process.argv.slice(2), process.env);
  } catch (error) {
    if (error instanceof UsageError) {
      if (error.message) console.error(error.message);
      console.error(USAGE);
      process.exit(error.message ? 2 : 0);
    }
    throw error;
  }

  let backend: LocalBackend | undefined;
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) {
      console.error(`Received ${signal} again: exiting without waiting.`);
      process.exit(130);
    }
    stopping = true;
    if (!backend) process.exit(130);
    console.log("Stopping the local backend…");
    backend.close().then(
      () => {
        console.log("Local backend stopped.");
        process.exit(0);
      },
      (error: unknown) => {
        console.error(`Local backend did not stop cleanly: ${oneLine(error)}`);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);

  backend = await startLocalBackend({
    port: options.port,
    dataDir: options.dataDir,
    notifications: localNotificationOptions({ dataDir: options.dataDir, port: options.port }),
    log: (line) => {
      if (!options.quiet || !/^[A-Z]+ \//.test(line)) console.log(line);
    },
  });
  console.log(`Local backend ready at ${backend.url}`);
  console.log(`  REST API:    ${backend.url}/rest/v1/contacts`);
  console.log(`  anon key:    ${backend.anonKey}`);
  console.log(`  data folder: ${backend.dataDir ?? "none (in memory: nothing is kept after it stops)"}`);
  console.log("  List the stored requests with `npm run requests`. Press Ctrl-C to stop.");
  if (stopping) stop("SIGTERM");
}

main().catch((error: unknown) => {
  console.error(error instanceof LocalBackendError ? error.message : `Local backend failed: ${oneLine(error)}`);
  process.exit(1);
});
