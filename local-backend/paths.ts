import fs from "node:fs";
import path from "node:path";

/** Where the local database lives unless told otherwise (relative to the project root). */
export const DEFAULT_DATA_DIR = ".data/local-supabase";

/**
 * The project root: the nearest folder, from the working directory up, that has
 * `supabase/migrations`. Falls back to the working directory.
 */
export function findProjectRoot(from: string = process.cwd()): string {
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

export function defaultDataDir(): string {
  return path.join(findProjectRoot(), DEFAULT_DATA_DIR);
}

/** PGlite's own files go in a sub-folder, next to the lock file. */
export function pgDataDir(dataDir: string): string {
  return path.join(dataDir, "pgdata");
}
