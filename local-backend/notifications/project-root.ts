import path from "node:path";

import { defaultMigrationsDir } from "../paths";

/** The project root (the folder that holds supabase/), found the way the migrations are. */
export function projectRoot(): string {
  return path.dirname(path.dirname(defaultMigrationsDir()));
}
