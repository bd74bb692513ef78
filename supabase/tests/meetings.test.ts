/**
 * Booking (20261128000011_meetings.sql): links stored as hashes, the guess limit, one meeting
 * per request within the booth's capacity, move and cancel, the campaign kept with a request and
 * meetings in the funnel. The fight over the last place runs on a real PostgreSQL 15 (PGlite
 * has one session, so nothing there is ever concurrent): two sessions book it at once.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

import { listMigrations } from "../../local-backend/database";
import { defaultMigrationsDir } from "../../local-backend/paths";
import { asRole, goodRow } from "../../local-backend/test-support/helpers";
import { asVisitor, insertAs, migrated, one, SUPABASE_ROLES_SQL } from "./harness";

jest.setTimeout(120_000);

const db = migrated();
const hash = (token: string) => crypto.createHash("sha256").update(token).digest("hex");
const at = (time: string) => `2025-05-19T${time}:00Z`;
type Answer = { outcome: string; meeting: { uid: string; sequence: number } };

/** `select public.<name>($1, …)` as the service role, its value. */
async function rpc<T>(name: string, ...args: unknown[]): Promise<T> {
  const call = `select public.${name}(${args.map((_, i) => `$${i + 1}`).join(", ")}) as value`;
  return (await asRole(db(), "service_role", (tx) => tx.query<{ value: T }>(call, args))).rows[0]!
    .value;
}

/** A visitor's request (with an x-campaign header) and a link to it. */
async function request(campaign?: string) {
  const row = goodRow();
  await asVisitor(db(), campaign ? { "x-campaign": campaign } : {}, (tx) => insertAs(tx, row));
  const sql = "select id::int as value from public.contacts where email = $1";
  const id = await one<number>(db(), sql, [row.email]);
  const token = crypto.randomBytes(32).toString("base64url");
  await rpc("issue_booking_links", JSON.stringify([{ contact_id: id, token_hash: hash(token) }]));
  return { id, token };
}

const book = (token: string, action: string, start = "16:00", end = "16:30", capacity = 2) =>
  rpc<Answer>("book_meeting", hash(token), action, at(start), at(end), capacity);
const lookup = (token: string, client = "198.51.100.7") =>
  rpc<Record<string, object>>("booking_lookup", hash(token), client, at("00:00"), at("23:00"));

test("only the service role reaches any of it; the database keeps the token's hash only", async () => {
  for (const sql of ["select public.book_meeting('x', 'book')", "select * from public.meetings"])
    await expect(asRole(db(), "anon", (tx) => tx.query(sql))).rejects.toThrow(/permission denied/);
  const { token } = await request();
  const count = "select count(*)::int as value from private.booking_links where token_hash = $1";
  expect([await one(db(), count, [hash(token)]), await one(db(), count, [token])]).toEqual([1, 0]);
});

test("a token opens its request only; a wrong one is a counted guess, 20 an hour per client", async () => {
  const { token } = await request();
  expect((await lookup(token)).found).toMatchObject({ name: "Ada Lovelace", meeting: null });
  expect(await lookup(`${token.slice(0, -1)}x`)).toEqual({ unknown: true });
  for (let guess = 1; guess <= 20; guess += 1) await lookup("wrong", "203.0.113.9");
  expect(await lookup(token, "203.0.113.9")).toEqual({ limited: true });
  expect((await lookup(token, "192.0.2.1")).found).toBeDefined();
  await db().exec("delete from private.booking_guesses");
});

test("book, a second press, move (same UID, SEQUENCE + 1), cancel (+ 1), book again (new UID)", async () => {
  const { token } = await request();
  const booked = await book(token, "book");
  const uid = booked.meeting.uid;
  expect(booked).toMatchObject({ outcome: "booked", meeting: { sequence: 0 } });
  expect(await book(token, "book", "17:00", "17:30")).toMatchObject({
    outcome: "already-booked",
    meeting: { starts_at: "2025-05-19T16:00:00+00:00" },
  });
  const moved = await book(token, "move", "17:00", "17:30");
  expect(moved).toMatchObject({ outcome: "moved", meeting: { uid, sequence: 1 } });
  const cancelled = await book(token, "cancel");
  expect(cancelled).toMatchObject({ outcome: "cancelled", meeting: { uid, sequence: 2 } });
  expect(await book(token, "move")).toEqual({ outcome: "not-booked" });
  const again = await book(token, "book");
  expect([again.outcome, again.meeting.sequence, again.meeting.uid === uid]).toEqual([
    "booked",
    0,
    false,
  ]);
  await book(token, "cancel");
});

test("overlapping meetings count against the capacity; full changes nothing; a deleted request is gone", async () => {
  const [a, b, c] = [await request(), await request(), await request()];
  expect((await book(a.token, "book", "18:00", "18:30")).outcome).toBe("booked");
  expect((await book(b.token, "book", "18:15", "18:45")).outcome).toBe("booked");
  expect(await book(c.token, "book", "18:00", "18:30")).toEqual({ outcome: "full" });
  const sql = "select count(*)::int as value from public.meetings where contact_id = $1";
  expect(await one(db(), sql, [c.id])).toBe(0);
  expect((await book(a.token, "move", "18:10", "18:40")).outcome).toBe("moved"); // not itself
  await db().query("delete from public.contacts where id = $1", [c.id]);
  expect(await book(c.token, "book", "20:00", "20:30")).toEqual({ outcome: "gone" });
  await db().exec("delete from public.meetings");
});

test("the request's campaign is kept; the report and the funnel view count booked meetings per campaign", async () => {
  const linkedin = await request("linkedin/social/expo-2025");
  const links = [linkedin, await request("not a campaign"), await request()];
  const cancelled = await request("linkedin/social/expo-2025");
  for (const { token } of [...links, cancelled]) await book(token, "book", "21:00", "21:30", 9);
  await book(cancelled.token, "cancel");
  expect(await one(db(), "select count(*)::int as value from private.contact_campaigns")).toBe(2);
  const today = new Date().toISOString().slice(0, 10);
  type Report = { totals: { meetings: number }; campaigns: object[]; days: object[] };
  const report = await rpc<Report>("site_analytics_report", today, today);
  expect(report.totals.meetings).toBe(3);
  expect(report.campaigns).toEqual([
    expect.objectContaining({ source: "", medium: "", campaign: "", meetings: 2 }),
    expect.objectContaining({ source: "linkedin", campaign: "expo-2025", views: 0, meetings: 1 }),
  ]);
  expect(report.days).toEqual([expect.objectContaining({ date: today, meetings: 3 })]);
  const view = "select source, meetings::int from public.site_funnel_daily where day = $1";
  expect((await db().query(`${view} order by source`, [today])).rows).toEqual([
    { source: "", meetings: 2 },
    { source: "linkedin", meetings: 1 },
  ]);
});

describe("on PostgreSQL 15, two staff take the last place at the same moment", () => {
  const bin = process.env.PG_BIN ?? "/usr/lib/postgresql/15/bin";
  const run = promisify(execFile);
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "meetings-pg-"));
  const port = 20000 + Math.floor(Math.random() * 20000);
  let server: ChildProcess | undefined;
  const psql = (sql: string) =>
    run(
      path.join(bin, "psql"),
      ["-XqAt", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1"].concat([
        "-p",
        `${port}`,
        "-U",
        "postgres",
        "-c",
        sql,
      ]),
    ).then(({ stdout }) => stdout.trim());

  beforeAll(async () => {
    // As root, PostgreSQL runs as nobody, which must reach its folder.
    const user = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
    if (user.uid) fs.chownSync(folder, 65534, 65534);
    for (let dir = folder; user.uid && dir !== "/"; dir = path.dirname(dir))
      fs.chmodSync(dir, fs.statSync(dir).mode | 0o001);
    const data = path.join(folder, "data");
    await run(path.join(bin, "initdb"), ["-D", data, "-U", "postgres", "--auth=trust"], user);
    const settings = ["-c", "listen_addresses=127.0.0.1", "-c", "fsync=off"];
    const args = ["-D", data, "-p", `${port}`, "-k", folder, ...settings];
    server = spawn(path.join(bin, "postgres"), args, { ...user, stdio: "ignore" });
    for (let tries = 0; !(await psql("select 1").catch(() => "")) && tries < 100; tries += 1)
      await new Promise((resolve) => setTimeout(resolve, 100));
    await psql(SUPABASE_ROLES_SQL);
    for (const file of listMigrations(defaultMigrationsDir()))
      await psql(fs.readFileSync(path.join(defaultMigrationsDir(), file), "utf8"));
  });

  afterAll(async () => {
    const exited = new Promise((resolve) => server?.once("exit", resolve));
    if (server?.kill("SIGINT")) await exited;
    fs.rmSync(folder, { recursive: true, force: true });
  });

  test("exactly one wins; the other is told the time is full and nothing of it is stored", async () => {
    for (const name of ["first", "second", "third"])
      await psql(`insert into public.contacts (name, email, organization, message)
                    values ('${name}', '${name}@example.org', 'Org', 'Hi');
                  insert into private.booking_links
                    select '${hash(name)}', id from public.contacts where name = '${name}';`);
    const call = (name: string, pause: number) =>
      psql(`begin; set local role service_role;
            select public.book_meeting('${hash(name)}', 'book', '${at("16:00")}', '${at("16:30")}', 2)
                   ->> 'outcome';
            select pg_sleep(${pause}); commit;`).then((out) => out.split("\n")[0]);
    expect(await call("first", 0)).toBe("booked");
    // The second holds its transaction open; the third starts meanwhile and must wait for it.
    const third = new Promise((resolve) => setTimeout(resolve, 300)).then(() => call("third", 0));
    expect(await Promise.all([call("second", 1), third])).toEqual(["booked", "full"]);
    const booked =
      "select string_agg(c.name, ',' order by c.name) from public.meetings m join public.contacts c on c.id = m.contact_id";
    expect(await psql(booked)).toBe("first,second");
  });
});
