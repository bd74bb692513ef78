/**
 * Command-line options of `npm run backend` and `npm run requests`, read with Node's
 * util.parseArgs (kept apart from the commands so tests can import them).
 */
import { parseArgs, type ParseArgsConfig } from "node:util";

import { LOCAL_BACKEND_PORT } from "../build-time/local-backend-defaults";
import { localDataDir } from "./paths";

export const USAGE = `Usage: npm run backend -- [--port N] [--data-dir PATH | --in-memory] [--quiet]

  --port N          port to listen on (default ${LOCAL_BACKEND_PORT}, env LOCAL_BACKEND_PORT; 0 = any free port)
  --data-dir PATH   where the database is kept (default .data/local-supabase, env LOCAL_BACKEND_DATA_DIR)
  --in-memory       keep nothing: the database lives in memory until the backend stops
  --quiet           do not log each request`;

/** A mistake in the arguments; an empty message means "show the usage" (--help). */
export class UsageError extends Error {}

type Options = NonNullable<ParseArgsConfig["options"]>;

/** util.parseArgs, its errors (already one sentence each) as UsageErrors. */
export function parseOptions<T extends Options>(
  argv: readonly string[],
  options: T,
): ReturnType<typeof parseArgs<{ args: string[]; options: T }>>["values"] {
  try {
    return parseArgs({ args: [...argv], options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    if (code?.startsWith("ERR_PARSE_ARGS_")) throw new UsageError(message.replace(/\.?$/, "."));
    throw error;
  }
}

export function parsePort(text: string, from: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535)
    throw new UsageError(`${from} must be a port number (0-65535), not "${text}".`);
  return port;
}

export function parseCliArgs(argv: readonly string[], env: NodeJS.ProcessEnv) {
  const values = parseOptions(argv, {
    port: { type: "string" },
    "data-dir": { type: "string" },
    "in-memory": { type: "boolean" },
    quiet: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  });
  if (values.help) throw new UsageError("");
  if (values["in-memory"] && values["data-dir"] !== undefined) {
    throw new UsageError("--data-dir and --in-memory cannot be used together.");
  }
  const port =
    values.port !== undefined
      ? parsePort(values.port, "--port")
      : env.LOCAL_BACKEND_PORT
        ? parsePort(env.LOCAL_BACKEND_PORT, "LOCAL_BACKEND_PORT")
        : LOCAL_BACKEND_PORT;
  const dataDir = values["in-memory"] ? undefined : (values["data-dir"] ?? localDataDir(env));
  return { port, dataDir, quiet: values.quiet ?? false };
}
