/**
 * The lints about functions, extensions, column types and keys into Supabase Auth
 * (schema-lints.ts), each on a deliberately bad fixture and on a fixed one, applied to a
 * database with Supabase's roles and default grants and rolled back. Every list is every
 * finding of every lint. citext stands in for an extension (PGlite has no pg_net or pg_cron).
 */
import { AUTH_STAND_INS, finding, lintCases, quietTable } from "./fixture-database";

const OLDEST_CITEXT = "1.4";

const database = lintCases(
  [
    [
      "function_search_path_mutable",
      "create function public.f(a int) returns int language sql as 'select a'",
      [finding("function_search_path_mutable", "WARN", "public.f(a integer)")],
    ],
    [
      // citext's own functions in public have no search_path either: extension members are not linted.
      "extension_in_public",
      "create extension citext",
      [finding("extension_in_public", "WARN", "citext")],
    ],
    [
      "unsupported_reg_types",
      quietTable("t", "id int primary key, handler regproc, config regconfig, kind regclass"),
      [
        finding("unsupported_reg_types", "WARN", "public.t column config (regconfig)"),
        finding("unsupported_reg_types", "WARN", "public.t column handler (regproc)"),
      ],
    ],
    [
      "fkey_to_auth_unique",
      `${AUTH_STAND_INS} ${quietTable("profiles", "id int primary key, email text references auth.users (email)")}`,
      [
        finding(
          "unindexed_foreign_keys",
          "INFO",
          "public.profiles foreign key profiles_email_fkey",
        ),
        finding("fkey_to_auth_unique", "ERROR", "public.profiles foreign key profiles_email_fkey"),
      ],
    ],
  ],
  [
    [
      "function_search_path_mutable",
      "create function public.f(a int) returns int language sql set search_path = '' as 'select a'",
      [],
    ],
    [
      "extension_in_public",
      "create schema extensions; create extension citext schema extensions",
      [],
    ],
    [
      "unsupported_reg_types",
      quietTable("t", "id int primary key, handler text, kind regclass"),
      [],
    ],
    [
      "fkey_to_auth_unique",
      `${AUTH_STAND_INS} ${quietTable("profiles", "id int primary key, user_id uuid references auth.users (id)")}
       create unique index profiles_user_id_key on public.profiles (user_id)`,
      [],
    ],
    [
      "extension_versions_outdated",
      `create schema extensions; create extension citext schema extensions version '${OLDEST_CITEXT}'; alter extension citext update`,
      [],
    ],
  ],
);

describe("each lint catches a bad fixture and passes a fixed one", () => {
  test("extension_versions_outdated", async () => {
    const available = await database().db.query<{ v: string }>(
      "select default_version as v from pg_catalog.pg_available_extensions where name = 'citext'",
    );
    const citextDefaultVersion = available.rows[0]!.v;
    expect(citextDefaultVersion).not.toBe(OLDEST_CITEXT);
    expect(
      await database().lint(
        `create schema extensions; create extension citext schema extensions version '${OLDEST_CITEXT}'`,
      ),
    ).toEqual([
      finding(
        "extension_versions_outdated",
        "WARN",
        `citext ${OLDEST_CITEXT} (default ${citextDefaultVersion})`,
      ),
    ]);
  });
});
