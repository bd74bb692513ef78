/**
 * The screening's settings (private.screening_settings) for a local backend: each column a
 * `SCREENING_<COLUMN>` variable, applied at every start; a column without one gets its default,
 * so what runs is always what the environment says. Hosted, they change with one SQL line.
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
        `${name} must be a whole number (0 or more), not ${JSON.stringify(raw)}.`,
      );
    }
    settings[name.slice(PREFIX.length).toLowerCase()] = value;
  }
  return settings;
}

/** Rewrites private.screening_settings' one row: the values given, every other column its default. */
export async function applyScreeningSettings(
  db: PGlite,
  settings: ScreeningSettings,
): Promise<void> {
  const names = Object.keys(settings);
  const columns = names.map((name) => `, "${name.replace(/"/g, '""')}"`).join("");
  const values = names.map((_, i) => `, $${i + 1}`).join("");
  try {
    await db.transaction(async (tx) => {
      await tx.query("delete from private.screening_settings");
      await tx.query(
        `insert into private.screening_settings (only_row${columns}) values (true${values})`,
        Object.values(settings),
      );
    });
  } catch (error) {
    throw new LocalBackendError(
      `The screening settings (${PREFIX}* variables) were refused: ${(error as Error).message}.`,
    );
  }
}
