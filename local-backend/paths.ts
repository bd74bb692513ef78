/** Where the project's files are: its root, the migrations, the local data folder. */
import fs from "node:fs";
import path from "node:path";

/** The nearest folder, from the working directory up, that has supabase/migrations (else the working directory). */
export function projectRoot(from: string = process.cwd()): string {
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, "supabase", "migrations"))) return dir;
    if (path.dirname(dir) === dir) return path.resolve(from);
  }
}

export function defaultMigrationsDir(): string {
  return path.join(projectRoot(), "supabase", "migrations");
}

/** The data folder the commands use: LOCAL_BACKEND_DATA_DIR, else .data/local-supabase of the project. */
export function localDataDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.LOCAL_BACKEND_DATA_DIR || path.join(projectRoot(), ".data", "local-supabase");
}

/** PGlite's own files go in a sub-folder, beside the lock and the journal. */
export function pgDataDir(dataDir: string): string {
  return path.join(dataDir, "pgdata");
}
