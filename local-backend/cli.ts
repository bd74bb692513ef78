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
import { LOCAL_BACKEND_PORT } from "../src/lib/local-backend-defaults";
import { LocalBackendError, oneLine } from "./errors";
import { defaultDataDir } from "./paths";
import { startLocalBackend, type LocalBackend } from "./server";

const USAGE = `Usage: npm run backend -- [--port N] [--data-dir PATH | --in-memory] [--quiet]

  --port N          port to listen on (default ${LOCAL_BACKEND_PORT}, env LOCAL_BACKEND_PORT; 0 = any free port)
  --data-dir PATH   where the database is kept (default .data/local-supabase, env LOCAL_BACKEND_DATA_DIR)
  --in-memory       keep nothing: the database lives in memory until the backend stops
  --quiet           do not log each request`;

interface CliOptions {
  port: number;
  dataDir: string | undefined;
  quiet: boolean;
}

class UsageError extends Error {}

function parsePort(text: string, from: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535) throw new UsageError(`${from} must be a port number (0-65535), not "${text}".`);
  return port;
}

export function parseCliArgs(argv: readonly string[], env: NodeJS.ProcessEnv): CliOptions {
  let port = env.LOCAL_BACKEND_PORT ? parsePort(env.LOCAL_BACKEND_PORT, "LOCAL_BACKEND_PORT") : LOCAL_BACKEND_PORT;
  let dataDir: string | undefined = env.LOCAL_BACKEND_DATA_DIR || defaultDataDir();
  let quiet = false;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    const [flag, inline] = arg.startsWith("--") && arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
    const value = (): string => {
      const next = inline ?? argv[++i];
      if (next === undefined) throw new UsageError(`${flag} needs a value.`);
      return next;
    };
    switch (flag) {
      case "--port":
        port = parsePort(value(), "--port");
        break;
      case "--data-dir":
        dataDir = value();
        break;
      case "--in-memory":
        dataDir = undefined;
        break;
      case "--quiet":
        quiet = true;
        break;
      case "--help":
      case "-h":
        throw new UsageError("");
      default:
        throw new UsageError(`Unknown option ${arg}.`);
    }
  }
  return { port, dataDir, quiet };
}

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
