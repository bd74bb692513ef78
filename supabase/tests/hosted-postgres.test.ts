/**
 * The migrations on a hosted-like PostgreSQL 15 (a hosted project's roles and grants, without
 * pg_net or pg_cron), through Supabase's own CLI. Needs /usr/lib/postgresql/15/bin (or PG_BIN).
 */
import { execFile } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

import { listMigrations } from "../../local-backend/database";
import { defaultMigrationsDir } from "../../local-backend/paths";
import { SUPABASE_ROLES_SQL } from "./harness";

jest.setTimeout(120_000);

const run = promisify(execFile);
const PG_BIN = process.env.PG_BIN ?? "/usr/lib/postgresql/15/bin";
const SUPABASE = path.resolve(__dirname, "../../node_modules/.bin/supabase");

/** What a new hosted project has besides the API roles (supabase/postgres's init scripts). */
const HOSTED_PROJECT_SQL = `
  create role postgres login nosuperuser createdb createrole replication bypassrls;
  ${SUPABASE_ROLES_SQL}
  create role authenticator login noinherit;
  grant anon, authenticated, service_role to authenticator;
  grant all on database postgres to postgres;
  grant all on schema public to postgres;
  create schema extensions;
  create extension "uuid-ossp" with schema extensions;
  create extension pgcrypto with schema extensions;
  grant usage on schema extensions to postgres, anon, authenticated, service_role;
  alter database postgres set pgrst.db_schemas = 'public, graphql_public';
`;

let folder: string;
let data: string;
let url: string;
/** As root, PostgreSQL runs as nobody, which must be able to reach its folder. */
let asServer: { uid?: number; gid?: number } = {};

async function freePort(): Promise<number> {
  const probe = net.createServer().listen(0, "127.0.0.1");
  await new Promise((resolve) => probe.once("listening", resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Runs `sql` as `user`, giving its rows unaligned (psql -At). */
const psql = (user: string, sql: string) =>
  run(path.join(PG_BIN, "psql"), [
    "-XqAt",
    "-v",
    "ON_ERROR_STOP=1",
    url.replace("postgres@", `${user}@`).replace(/\?.*/, ""),
    "-c",
    sql,
  ]);

beforeAll(async () => {
  if (!fs.existsSync(path.join(PG_BIN, "initdb")))
    throw new Error(
      `PostgreSQL 15 is not in ${PG_BIN}: apt-get install postgresql-15, or set PG_BIN.`,
    );
  folder = fs.mkdtempSync(path.join(os.tmpdir(), "hosted-postgres-"));
  data = path.join(folder, "data");
  if (process.getuid?.() === 0) {
    asServer = { uid: 65534, gid: 65534 };
    fs.chownSync(folder, 65534, 65534);
    for (let dir = path.dirname(folder); dir !== path.dirname(dir); dir = path.dirname(dir)) {
      const { mode } = fs.statSync(dir);
      if (!(mode & 0o001)) fs.chmodSync(dir, mode | 0o001);
    }
  }
  const initdb = ["-D", data, "-U", "supabase_admin", "--auth=trust", "-E", "UTF8", "--locale=C"];
  await run(path.join(PG_BIN, "initdb"), initdb, asServer);
  const port = await freePort();
  url = `postgresql://postgres@127.0.0.1:${port}/postgres?sslmode=disable`;
  const options = `-p ${port} -k ${folder} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const log = path.join(folder, "server.log");
  const start = ["start", "-w", "-D", data, "-l", log, "-o", options];
  await run(path.join(PG_BIN, "pg_ctl"), start, asServer);
  await psql("supabase_admin", HOSTED_PROJECT_SQL);
});

afterAll(async () => {
  await run(path.join(PG_BIN, "pg_ctl"), ["stop", "-m", "fast", "-D", data], asServer).catch(
    () => {},
  );
  fs.rmSync(folder, { recursive: true, force: true });
});

test("supabase db push applies the migrations unchanged to a hosted-like PostgreSQL 15 without pg_net", async () => {
  const workdir = path.join(folder, "project");
  fs.cpSync(path.dirname(defaultMigrationsDir()), path.join(workdir, "supabase"), {
    recursive: true,
    filter: (source) => !/[\\/](functions|tests|\.temp)$/.test(source),
  });
  const push = ["db", "push", "--yes", "--workdir", workdir, "--db-url", url];
  const { stdout, stderr } = await run(SUPABASE, push);
  const applied = [...`${stdout}${stderr}`.matchAll(/Applying migration (\S+)\.\.\./g)].map(
    (m) => m[1],
  );
  expect(applied).toEqual(listMigrations(defaultMigrationsDir()));
  const state = await psql(
    "postgres",
    `select (select count(*) from pg_available_extensions where name in ('pg_net', 'pg_cron')) || ' '
         || (select count(*) from pg_trigger where tgname = 'contacts_40_notify_staff') || ' '
         || (select count(*) from private.screening_settings)`,
  );
  expect(state.stdout.trim()).toBe("0 0 1");
});

test("two staff take the last place at the same moment: exactly one wins, the other is told it is full", async () => {
  const hash = (name: string) => crypto.createHash("sha256").update(name).digest("hex");
  for (const name of ["first", "second", "third"])
    await psql(
      "supabase_admin",
      `insert into public.contacts (name, email, organization, message)
         values ('${name}', '${name}@example.org', 'Org', 'Hi');
       insert into private.booking_links select '${hash(name)}', id from public.contacts where name = '${name}';`,
    );
  const book = (name: string, pause: number) =>
    psql(
      "supabase_admin",
      `begin; set local role service_role;
       select public.book_meeting('${hash(name)}', 'book', '2025-05-19T16:00Z', '2025-05-19T16:30Z', 2) ->> 'outcome';
       select pg_sleep(${pause}); commit;`,
    ).then(({ stdout }) => stdout.split("\n")[0]);
  expect(await book("first", 0)).toBe("booked");
  // The second holds its transaction open; the third starts meanwhile and must wait for it.
  const third = new Promise((resolve) => setTimeout(resolve, 300)).then(() => book("third", 0));
  expect(await Promise.all([book("second", 1), third])).toEqual(["booked", "full"]);
  const booked = await psql(
    "supabase_admin",
    "select string_agg(c.name, ',' order by c.name) from public.meetings m join public.contacts c on c.id = m.contact_id",
  );
  expect(booked.stdout.trim()).toBe("first,second");
});

test("supabase db advisors --type all --fail-on warn: no error, no warning", async () => {
  const advisors = "db advisors --type all --level info --fail-on warn --output-format json";
  // Its exit code says whether it failed; its output says on what.
  const { stdout, code } = await run(SUPABASE, [...advisors.split(" "), "--db-url", url]).then(
    ({ stdout }) => ({ stdout, code: 0 }),
    (error: { stdout: string; code: number }) => error,
  );
  const { results } = JSON.parse(stdout) as {
    results: { name: string; level: string; detail: string }[];
  };
  console.log(
    `advisor: ${results.map((result) => `${result.level} ${result.name}: ${result.detail}`).join("; ")}`,
  );
  expect(results.filter((result) => result.level !== "INFO")).toEqual([]);
  expect(code).toBe(0);
  expect(results.length).toBeGreaterThan(0); // it ran its lints: unused indexes on a fresh database are INFO
});
