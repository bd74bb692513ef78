/**
 * `npm run backend` (options: cli-args.ts): `Local backend ready at …` once it accepts requests; a
 * failure is one line on stderr and status 1 (2 for bad arguments). npm runs it with `node --import
 * tsx`: the tsx command kills a child that does not acknowledge a signal in 30 ms.
 */
import { parseCliArgs, UsageError, USAGE } from "./cli-args";
import { LocalBackendError, oneLine } from "./errors";
import { localEnvironment, notificationOptionsFromEnv } from "./notifications/settings";
import { projectRoot } from "./paths";
import { screeningSettingsFromEnv } from "./screening-settings";
import { startLocalBackend, type LocalBackend } from "./server";
import { onStopRequest } from "./stop-signals";

function parseOrExit(): ReturnType<typeof parseCliArgs> {
  try {
    return parseCliArgs(process.argv.slice(2), process.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    if (error.message) console.error(error.message);
    console.error(USAGE);
    process.exit(error.message ? 2 : 0);
  }
}

async function main(): Promise<void> {
  const options = parseOrExit();
  let stopRequested: ((reason: string) => void) | undefined;
  const stopping = new Promise<string>((resolve) => (stopRequested = resolve));
  onStopRequest({
    stop: (reason) => {
      console.log(`Stopping the local backend (${reason})… Press Ctrl-C again to force.`);
      stopRequested?.(reason);
    },
  });

  let backend: LocalBackend;
  const env = localEnvironment();
  try {
    backend = await startLocalBackend({
      port: options.port,
      dataDir: options.dataDir,
      notifications: notificationOptionsFromEnv(env, projectRoot(), options),
      screening: screeningSettingsFromEnv(env),
      log: (line) => {
        if (!options.quiet || !/^[A-Z]+ \//.test(line)) console.log(line);
      },
      onDataFolderLost: (message) => {
        console.error(message);
        process.exit(1);
      },
    });
  } catch (error) {
    console.error(
      error instanceof LocalBackendError
        ? error.message
        : `Local backend failed: ${oneLine(error)}`,
    );
    process.exit(1);
  }
  console.log(`Local backend ready at ${backend.url}`);
  console.log(`  REST API:    ${backend.url}/rest/v1/contacts`);
  console.log(`  anon key:    ${backend.anonKey}`);
  console.log(
    `  data folder: ${backend.dataDir ?? "none (in memory: nothing is kept after it stops)"}`,
  );
  console.log("  List the stored requests with `npm run requests`. Press Ctrl-C to stop.");

  await stopping;
  try {
    await backend.close();
  } catch (error) {
    console.error(`Local backend did not stop cleanly: ${oneLine(error)}`);
    process.exit(1);
  }
  console.log("Local backend stopped.");
  process.exit(0);
}

main().catch((error: unknown) => {
  console.error(`Local backend failed: ${oneLine(error)}`);
  process.exit(1);
});
