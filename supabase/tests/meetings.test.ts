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

import { asRole, asVisitor, goodRow, insertAs } from "../../local-backend/test-helpers";
import { listMigrations } from "../../local-backend/database";
import { defaultMigrationsDir } from "../../local-backend/paths";
import { migrated, one, SUPABASE_ROLES_SQL } from "./harness";

jest.setTimeout(120_000);

const db = migrated();
const hash = (token: string) => crypto.createHash("sha256").update(token).digest("hex");
const at = (time: string) => `2025-05-19T${time}:00Z`;
type Outcome = { outcome: string; meeting?: { uid: string; sequence: number; starts_at: string } };

async function request(campaign?: string): Promise<{ id: number; token: string }> {
  const row = goodRow();
  const headers: Record<string, string> = campaign ? { "x-campaign": campaign } : {};
  await asVisitor(db(), headers, (tx) => insertAs(tx, row));
  const id = await one<number>(
    db(),
    "select id::int as value from public.contacts where email = $1",
    [row.email],
  );
  const token = crypto.randomBytes(32).toString("base64url");
  await service("select * from public.issue_booking_links($1)", [
    JSON.stringify([{ contact_id: id, token_hash: hash(token) }]),
  ]);
  return { id, token };
}

const service = async (sql: string, params: unknown[]) =>
  (await asRole(db(), "service_role", (tx) => tx.query<{ r: unknown }>(sql, params))).rows;

const book = async (
  token: string,
  action: string,
  start = at("16:00"),
  end = at("16:30"),
  capacity = 2,
) =>
  (
    await service("select public.book_meeting($1, $2, $3, $4, $5) as r", [
      hash(token),
      action,
      start,
      end,
      capacity,
    ])
  )[0]!.r as Outcome;

const lookup = async (token: string, client = "198.51.100.7") =>
  (
    await service("select public.booking_lookup($1, $2, $3, $4) as r", [
      hash(token),
      client,
      at("00:00"),
      "2025-05-22T07:00:00Z",
    ])
  )[0]!.r as Record<string, { name: string; meeting: unknown; booked: unknown[] }>;

test("visitors reach nothing of it; only the service role may call the functions", async () => {
  for (const call of [
    "booking_lookup('x', 'y', now(), now())",
    "book_meeting('x', 'book')",
    "issue_booking_links('[]')",
  ]) {
    await expect(asRole(db(), "anon", (tx) => tx.query(`select public.${call}`))).rejects.toThrow(
      /permission denied/,
    );
  }
  await expect(
    asRole(db(), "anon", (tx) => tx.query("select * from public.meetings")),
  ).rejects.toThrow(/permission denied/);
  const stored = await request();
  expect(
    await one(
      db(),
      "select count(*)::int as value from private.booking_links where token_hash = $1",
      [hash(stored.token)],
    ),
  ).toBe(1);
  expect(
    await one(
      db(),
      "select count(*)::int as value from private.booking_links where token_hash = $1",
      [stored.token],
    ),
  ).toBe(0);
});

test("a token opens its request only; a wrong one is a counted guess, limited per client", async () => {
  const { token } = await request();
  const found = await lookup(token);
  expect(found.found).toMatchObject({ name: "Ada Lovelace", meeting: null, booked: [] });
  expect(await lookup(`${token.slice(0, -1)}x`)).toEqual({ unknown: true });
  for (let guess = 1; guess <= 20; guess += 1) await lookup("wrong", "203.0.113.9");
  expect(await lookup("wrong", "203.0.113.9")).toEqual({ limited: true });
  expect(await lookup(token, "203.0.113.9")).toEqual({ limited: true });
  expect((await lookup(token, "192.0.2.1")).found).toBeDefined();
  await db().exec("delete from private.booking_guesses");
});

test("book, a second press, move (same UID, SEQUENCE + 1), cancel (SEQUENCE + 1), book again (a new UID)", async () => {
  const { token, id } = await request();
  const booked = await book(token, "book");
  expect(booked).toMatchObject({ outcome: "booked", meeting: { sequence: 0, contact_id: id } });
  const again = await book(token, "book", at("17:00"), at("17:30"));
  expect(again).toMatchObject({
    outcome: "already-booked",
    meeting: { starts_at: "2025-05-19T16:00:00+00:00" },
  });
  const moved = await book(token, "move", at("17:00"), at("17:30"));
  expect(moved).toMatchObject({
    outcome: "moved",
    meeting: { uid: booked.meeting!.uid, sequence: 1 },
  });
  const cancelled = await book(token, "cancel");
  expect(cancelled).toMatchObject({
    outcome: "cancelled",
    meeting: { uid: booked.meeting!.uid, sequence: 2 },
  });
  expect(await book(token, "cancel")).toEqual({ outcome: "not-booked" });
  expect(await book(token, "move")).toEqual({ outcome: "not-booked" });
  const rebooked = await book(token, "book");
  expect(rebooked).toMatchObject({ outcome: "booked", meeting: { sequence: 0 } });
  expect(rebooked.meeting!.uid).not.toBe(booked.meeting!.uid);
  await book(token, "cancel");
});

test("the capacity counts overlapping meetings; full changes nothing; a deleted request is gone", async () => {
  const [a, b, c] = [await request(), await request(), await request()];
  expect((await book(a.token, "book", at("18:00"), at("18:30"))).outcome).toBe("booked");
  expect((await book(b.token, "book", at("18:15"), at("18:45"))).outcome).toBe("booked");
  expect(await book(c.token, "book", at("18:00"), at("18:30"))).toEqual({ outcome: "full" });
  expect(
    await one(db(), "select count(*)::int as value from public.meetings where contact_id = $1", [
      c.id,
    ]),
  ).toBe(0);
  // Moving within its own place does not count itself.
  expect((await book(a.token, "move", at("18:10"), at("18:40"))).outcome).toBe("moved");
  await db().query("delete from public.contacts where id = $1", [c.id]);
  expect(await book(c.token, "book", at("20:00"), at("20:30"))).toEqual({ outcome: "gone" });
  expect(await lookup(c.token)).toEqual({ unknown: true });
  await db().exec("delete from public.meetings; delete from private.booking_guesses");
});

test("the campaign is kept with the request; the funnel counts booked meetings per campaign", async () => {
  const linkedin = await request("linkedin/social/expo-2025");
  const bad = await request("not a campaign");
  const none = await request();
  const cancelled = await request("linkedin/social/expo-2025");
  for (const { token } of [linkedin, bad, none, cancelled])
    await book(token, "book", at("21:00"), at("21:30"), 9);
  await book(cancelled.token, "cancel");
  expect(await one(db(), "select count(*)::int as value from private.contact_campaigns")).toBe(2);
  const today = new Date().toISOString().slice(0, 10);
  const report = await one<{ totals: { meetings: number }; campaigns: object[]; days: object[] }>(
    db(),
    "select public.site_analytics_report($1, $1) as value",
    [today],
  );
  expect(report.totals.meetings).toBe(3);
  expect(report.campaigns).toEqual([
    expect.objectContaining({ source: "", medium: "", campaign: "", meetings: 2 }),
    expect.objectContaining({
      source: "linkedin",
      medium: "social",
      campaign: "expo-2025",
      views: 0,
      meetings: 1,
    }),
  ]);
  expect(report.days).toEqual([expect.objectContaining({ date: today, meetings: 3 })]);
  const funnel = await db().query(
    "select source, meetings::int from public.site_funnel_daily where day = $1 order by source",
    [today],
  );
  expect(funnel.rows).toEqual([
    { source: "", meetings: 2 },
    { source: "linkedin", meetings: 1 },
  ]);
});

describe("on PostgreSQL 15, two staff take the last place at the same moment", () => {
  const bin = process.env.PG_BIN ?? "/usr/lib/postgresql/15/bin";
  let folder = "";
  let server: ChildProcess | undefined;
  let port = 0;
  const psql = (sql: string) =>
    promisify(execFile)(path.join(bin, "psql"), [
      "-XqAt",
      "-v",
      "ON_ERROR_STOP=1",
      "-h",
      "127.0.0.1",
      "-p",
      `${port}`,
      "-U",
      "postgres",
      "-c",
      sql,
    ]);

  beforeAll(async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), "meetings-pg-"));
    const user = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
    if (user.uid) fs.chownSync(folder, 65534, 65534);
    for (
      let dir = path.dirname(folder);
      user.uid && dir !== path.dirname(dir);
      dir = path.dirname(dir)
    )
      fs.chmodSync(dir, fs.statSync(dir).mode | 0o001);
    await promisify(execFile)(
      path.join(bin, "initdb"),
      ["-D", `${folder}/data`, "-U", "postgres", "--auth=trust"],
      user,
    );
    port = 20000 + Math.floor(Math.random() * 20000);
    server = spawn(
      path.join(bin, "postgres"),
      [
        "-D",
        `${folder}/data`,
        "-p",
        `${port}`,
        "-k",
        folder,
        "-c",
        "listen_addresses=127.0.0.1",
        "-c",
        "fsync=off",
      ],
      { ...user, stdio: "ignore" },
    );
    for (
      let tries = 0;
      await psql("select 1").then(
        () => false,
        () => tries++ < 100,
      );
    )
      await new Promise((resolve) => setTimeout(resolve, 100));
    await psql(SUPABASE_ROLES_SQL);
    for (const file of listMigrations(defaultMigrationsDir()))
      await psql(fs.readFileSync(path.join(defaultMigrationsDir(), file), "utf8"));
  });

  afterAll(async () => {
    if (server?.exitCode === null) {
      const exited = new Promise((resolve) => server!.once("exit", resolve));
      server.kill("SIGINT");
      await exited;
    }
    fs.rmSync(folder, { recursive: true, force: true });
  });

  test("exactly one wins; the other is told it is full and nothing of it is stored", async () => {
    const tokens = ["first", "second", "third"];
    await psql(
      tokens
        .map(
          (
            token,
          ) => `insert into public.contacts (name, email, organization, message) values ('${token}', '${token}@example.org', 'Org', 'Hi');
           insert into private.booking_links select '${hash(token)}', id from public.contacts where name = '${token}';`,
        )
        .join("\n"),
    );
    const call = (token: string, pause: number) =>
      psql(`begin; set local role service_role;
             select public.book_meeting('${hash(token)}', 'book', '${at("16:00")}', '${at("16:30")}', 2)->>'outcome';
             select pg_sleep(${pause}); commit;`).then(
        ({ stdout }) => stdout.trim().split("\n")[0],
      );
    expect(await call("first", 0)).toBe("booked");
    // The second holds its transaction open; the third starts meanwhile and must wait for it.
    const outcomes = await Promise.all([
      call("second", 1),
      new Promise((r) => setTimeout(r, 300)).then(() => call("third", 0)),
    ]);
    expect(outcomes).toEqual(["booked", "full"]);
    expect(
      (
        await psql(
          "select string_agg(c.name, ',' order by c.name) from public.meetings m join public.contacts c on c.id = m.contact_id",
        )
      ).stdout.trim(),
    ).toBe("first,second");
  });
});
