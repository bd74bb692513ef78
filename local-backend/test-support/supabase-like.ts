/**
 * A PGlite database set up like a new Supabase project (its roles and the default grants on
 * schema public), then migrated: what the advisor lints (tools/advisor) and the migration
 * tests run on. Test support only: the server does not use it.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { PGlite, type PGliteOptions } from "@electric-sql/pglite";

import { applyMigrations, listMigrations } from "../database";
import { defaultMigrationsDir } from "../paths";

/** What every new Supabase project grants on objects created in public (the reason for our revokes). */
export const SUPABASE_DEFAULT_GRANTS = `
  alter default privileges in schema public grant all on tables to anon, authenticated, service_role;
  alter default privileges in schema public grant all on functions to anon, authenticated, service_role;
  alter default privileges in schema public grant all on sequences to anon, authenticated, service_role;
  grant usage on schema public to anon, authenticated, service_role;
`;

export interface SupabaseLikeOptions {
  /** Apply only the first `migrationCount` files of supabase/migrations (default: all of them). */
  migrationCount?: number;
  /** PGlite extensions to make available (not installed: a migration or fixture creates them). */
  extensions?: PGliteOptions["extensions"];
}

/** A fresh database with Supabase's roles and default grants, then the migrations asked for. */
export async function supabaseLike(options: SupabaseLikeOptions = {}): Promise<PGlite> {
  const migrations = listMigrations(defaultMigrationsDir()).slice(0, options.migrationCount);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "supabase-like-migrations-"));
  const db = await PGlite.create({ extensions: options.extensions });
  try {
    await applyMigrations(db, dir);
    await db.exec(SUPABASE_DEFAULT_GRANTS);
    for (const name of migrations)
      fs.copyFileSync(path.join(defaultMigrationsDir(), name), path.join(dir, name));
    await applyMigrations(db, dir);
    return db;
  } catch (error) {
    await db.close();
    throw error;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
