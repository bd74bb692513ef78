/**
 * What every npm script's entry point in tools/ shares: how it ends, how it reads numbers, and the
 * built site folder some take as their one argument.
 */
import path from "node:path";
import { parseArgs } from "node:util";

import { UsageError } from "../../local-backend/cli-args";

/**
 * Runs an entry point's main function and exits with the status it returns. An error (a bad
 * option from util.parseArgs included) is printed as its message alone and exits 1; a UsageError
 * (local-backend/cli-args.ts) exits 2.
 */
export function runCli(main: () => Promise<number | void>): void {
  main().then(
    (code) => process.exit(code ?? 0),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : String(error));
      process.exit(error instanceof UsageError ? 2 : 1);
    },
  );
}

/** `read()`, with the usage line added to a UsageError's message. */
export function withUsage<T>(usage: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof UsageError) throw new UsageError(`${error.message}\n${usage}`);
    throw error;
  }
}

/** The value of a `--name N` option as a whole number ≥ `min`, or the fallback when it is absent. */
export function wholeNumberOption(
  value: string | undefined,
  name: string,
  fallback: number,
  min = 1,
): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < min)
    throw new Error(`--${name} needs a whole number ≥ ${min} (got "${value}").`);
  return number;
}

/** `npm run <script> [-- <built site folder, default public>]`: that folder, resolved. */
export function builtSiteArgument(script: string): string {
  const { positionals } = parseArgs({ args: process.argv.slice(2), allowPositionals: true });
  if (positionals.length > 1)
    throw new Error(`Usage: npm run ${script} [-- <built site folder, default public>]`);
  return path.resolve(positionals[0] ?? "public");
}
