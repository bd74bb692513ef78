/**
 * What supabase/config.toml must say for the Advisor. Lint 0012 (auth_allow_anonymous_sign_ins)
 * is an Auth setting, not SQL: anonymous sign-ins must stay off ([auth]
 * enable_anonymous_sign_ins absent, the CLI's default false, or false). And the lints take the
 * exposed schemas to be Supabase's default (sql.ts), which [api] schemas must keep saying.
 * The hosted project's own switches are in the dashboard (docs/database.md).
 */
import fs from "node:fs";
import path from "node:path";

import { DEFAULT_EXPOSED_SCHEMAS } from "./sql";

const CONFIG_FILE = path.resolve(__dirname, "../../supabase/config.toml");

/**
 * The one-line `key = value` settings of each [table] (values as written). Enough for the
 * settings read here; a multi-line value is not read.
 */
function tomlTables(text: string): Map<string, Map<string, string>> {
  const tables = new Map<string, Map<string, string>>([["", new Map()]]);
  let current = tables.get("")!;
  for (const rawLine of text.split("\n")) {
    const line = rawLine.replace(/\s#.*$|^#.*$/, "").trim();
    const header = /^\[([^\]]+)\]$/.exec(line);
    if (header) {
      current = new Map();
      tables.set(header[1]!.trim(), current);
      continue;
    }
    const setting = /^([\w.-]+)\s*=\s*(.+)$/.exec(line);
    if (setting) current.set(setting[1]!, setting[2]!.trim());
  }
  return tables;
}

/** Lint 0012's condition on a config: absent, the CLI's default (false) applies. */
const allowsAnonymousSignIns = (tables: Map<string, Map<string, string>>): boolean =>
  (tables.get("auth")?.get("enable_anonymous_sign_ins") ?? "false") !== "false";

const config = tomlTables(fs.readFileSync(CONFIG_FILE, "utf8"));

test("the reader sees what is set, per table, and 0012 catches a config that allows anonymous sign-ins", () => {
  const sample = tomlTables(
    'top = 1\n[auth]\n# enable_anonymous_sign_ins = false\nenable_anonymous_sign_ins = true # for the demo\n[api]\nschemas = ["a", "b"]\n',
  );
  expect(sample.get("auth")?.get("enable_anonymous_sign_ins")).toBe("true");
  expect(sample.get("api")?.get("schemas")).toBe('["a", "b"]');
  expect(sample.get("")?.get("top")).toBe("1");
  expect(allowsAnonymousSignIns(sample)).toBe(true);
  expect(allowsAnonymousSignIns(tomlTables("[auth]\nenable_anonymous_sign_ins = false\n"))).toBe(
    false,
  );
  expect(allowsAnonymousSignIns(tomlTables('[auth]\nsite_url = "http://localhost"\n'))).toBe(false);
});

test("0012 auth_allow_anonymous_sign_ins: supabase/config.toml keeps anonymous sign-ins off", () => {
  expect(allowsAnonymousSignIns(config)).toBe(false);
});

test("the API exposes the schemas the lints assume", () => {
  const setting = config.get("api")?.get("schemas");
  // Absent, the CLI's default applies: the same two schemas.
  const schemas: unknown =
    setting === undefined ? [...DEFAULT_EXPOSED_SCHEMAS] : JSON.parse(setting);
  expect(schemas).toEqual([...DEFAULT_EXPOSED_SCHEMAS]);
});
