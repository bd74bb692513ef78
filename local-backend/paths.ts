import fs from "node:fs";
import path from "node:path";

/** Where the local database lives unless told otherwise (relative to the project root). */
const DEFAULT_DATA_DIR = ".data/local-supabase";

/**
 * The project root: the nearest folder, from the working directory up, that has
 * `supabase/migrations`. Falls back to the working directory.
 */
function findProjectRoot(from: string = process.cwd()): string {
  let dir = path.resolve(from);
  for (;;) {
    if (fs.existsSync(path.join(dir, "supabase", "migrations"))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return path.resolve(from);
    dir = parent;
  }
}

export function defaultMigrationsDir(): string {
  return path.join(findProjectRoot(), "supabase", "migrations");
}

/** The data folder the commands use: LOCAL_BACKEND_DATA_DIR, else .data/local-supabase of the project. */
export function localDataDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.LOCAL_BACKEND_DATA_DIR || path.join(findProjectRoot(), DEFAULT_DATA_DIR);
}

/** PGlite's own files go in a sub-folder, next to the lock file. */
export function pgDataDir(dataDir: string): string {
  return path.join(dataDir, "pgdata");
}
