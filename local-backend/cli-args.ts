/** Command-line options of `npm run backend` (kept apart from cli.ts so tests can import them). */
import { LOCAL_BACKEND_PORT } from "../build-time/local-backend-defaults";
import { defaultDataDir } from "./paths";

export const USAGE = `Usage: npm run backend -- [--port N] [--data-dir PATH | --in-memory] [--quiet]

  --port N          port to listen on (default ${LOCAL_BACKEND_PORT}, env LOCAL_BACKEND_PORT; 0 = any free port)
  --data-dir PATH   where the database is kept (default .data/local-supabase, env LOCAL_BACKEND_DATA_DIR)
  --in-memory       keep nothing: the database lives in memory until the backend stops
  --quiet           do not log each request`;

export interface CliOptions {
  port: number;
  dataDir: string | undefined;
  quiet: boolean;
}

export class UsageError extends Error {}

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
