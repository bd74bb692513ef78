/**
 * The screening's settings (private.screening_settings: every budget, window and interval,
 * docs/notifications.md "Budgets and settings") for a local backend. A hosted project changes
 * them with one SQL line; locally each is a `SCREENING_<COLUMN>` variable (the shell's, then
 * .env.development and .env), applied at every start: a column without its variable goes back
 * to the migration's default, so what runs is always what the environment says.
 */
import type { PGlite } from "@electric-sql/pglite";

import { LocalBackendError } from "./errors";

const PREFIX = "SCREENING_";

/** Column → value, e.g. { window_seconds: 120 } from SCREENING_WINDOW_SECONDS=120. */
export type ScreeningSettings = Readonly<Record<string, number>>;

export function screeningSettingsFromEnv(env: NodeJS.ProcessEnv): ScreeningSettings {
  const settings: Record<string, number> = {};
  for (const [name, raw] of Object.entries(env)) {
    if (!name.startsWith(PREFIX) || raw === undefined || raw.trim() === "") continue;
    const value = Number(raw.trim());
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new LocalBackendError(
        "settings",
        `${name} must be a whole number (0 or more), not ${JSON.stringify(raw)}.`,
      );
    }
    settings[name.slice(PREFIX.length).toLowerCase()] = value;
  }
  return settings;
}

/** Sets every column of private.screening_settings: the given value, or its default. */
export async function applyScreeningSettings(
  db: Pick<PGlite, "query">,
  settings: ScreeningSettings,
): Promise<void> {
  const columns = (
    await db.query<{ name: string }>(
      `select a.attname as name from pg_catalog.pg_attribute a
        where a.attrelid = 'private.screening_settings'::regclass and a.attnum > 0 and not a.attisdropped
          and a.attname <> 'only_row' order by a.attnum`,
    )
  ).rows.map((row) => row.name);
  const unknown = Object.keys(settings).filter((name) => !columns.includes(name));
  if (unknown.length > 0) {
    throw new LocalBackendError(
      "settings",
      `Unknown screening setting ${unknown.map((name) => PREFIX + name.toUpperCase()).join(", ")}; the settings are ${columns
        .map((name) => PREFIX + name.toUpperCase())
        .join(", ")} (docs/notifications.md).`,
    );
  }
  const values: number[] = [];
  const assignments = columns.map((name) => {
    if (settings[name] === undefined) return `${name} = default`;
    values.push(settings[name]);
    return `${name} = $${values.length}`;
  });
  try {
    await db.query(`update private.screening_settings set ${assignments.join(", ")}`, values);
  } catch (error) {
    throw new LocalBackendError(
      "settings",
      `The screening settings were refused: ${(error as Error).message}.`,
    );
  }
}
