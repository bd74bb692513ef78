/**
 * The contacts migration, applied to a real PostgreSQL (PGlite) exactly as the local
 * backend applies it, probed as the roles Supabase uses.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { CONTACT_COLUMN_LIMITS } from "../src/lib/field-limits";
import { applyMigrations, listMigrations } from "./database";
import { LocalBackendError } from "./errors";
import { defaultMigrationsDir } from "./paths";
import { applyScreeningSettings } from "./screening-settings";
import {
  asRole,
  countRows,
  goodRow,
  insertAs,
  LIFTED_SCREENING,
  migratedDatabase,
  rejection,
  TRICKY_TEXT,
  uniqueEmail,
} from "./test-helpers";

jest.setTimeout(60_000);

// Many direct inserts as anon: the contacts table's own rules, not the screening's caps.
const db = migratedDatabase((migrated) => applyScreeningSettings(migrated, LIFTED_SCREENING));

const insertAnon = (row: object) => asRole(db(), "anon", (tx) => insertAs(tx, row));

describe("migrations", () => {
  test("are applied once each and recorded", async () => {
    const files = listMigrations(defaultMigrationsDir());
    expect(files.length).toBeGreaterThan(0);
    expect(await applyMigrations(db(), defaultMigrationsDir())).toEqual([]);
    const recorded = await db().query<{ name: string }>(
      "select name from local_backend.applied_migrations order by name",
    );
    expect(recorded.rows.map((row) => row.name)).toEqual(files);
  });

  test("a failing migration is reported with its file name and the SQL error", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bad-migrations-"));
    fs.writeFileSync(
      path.join(dir, "20990101000000_broken.sql"),
      "create table ok_table (id int);\nselect * from no_such_table;\n",
    );
    const error = await rejection(applyMigrations(db(), dir));
    expect(error).toBeInstanceOf(LocalBackendError);
    expect(error.message).toBe(
      'Migration 20990101000000_broken.sql failed (line 2): relation "no_such_table" does not exist',
    );
    // The whole file rolled back.
    const table = await db().query("select to_regclass('public.ok_table') as t");
    expect(table.rows[0]).toEqual({ t: null });
  });

  test("the rate-limit function is SECURITY DEFINER with an empty search_path", async () => {
    const result = await db().query(
      "select prosecdef, proconfig from pg_proc where oid = 'public.contacts_rate_limit'::regproc",
    );
    expect(result.rows[0]).toEqual({ prosecdef: true, proconfig: ['search_path=""'] });
    const index = await db().query<{ def: string }>(
      "select pg_get_indexdef('public.contacts_email_created_at_idx'::regclass) as def",
    );
    expect(index.rows[0]!.def).toContain("(lower(email), created_at)");
  });
});

describe("privileges and row-level security", () => {
  test("anon can insert the four form columns; id and created_at are filled in", async () => {
    const row = goodRow();
    await insertAnon({ ...row });
    const stored = await db().query<Record<string, unknown>>(
      "select * from public.contacts where email = $1",
      [row.email],
    );
    expect(stored.rows).toHaveLength(1);
    expect(stored.rows[0]).toMatchObject(row);
    expect(typeof stored.rows[0]!.id).toBe("number");
    expect(stored.rows[0]!.created_at).toBeInstanceOf(Date);
  });

  test("row-level security is enabled", async () => {
    const result = await db().query(
      "select relrowsecurity from pg_class where oid = 'public.contacts'::regclass",
    );
    expect(result.rows[0]).toEqual({ relrowsecurity: true });
  });

  test.each([
    ["select", "select * from public.contacts"],
    ["select count", "select count(*) from public.contacts"],
    ["update", "update public.contacts set name = 'changed'"],
    ["delete", "delete from public.contacts"],
    ["truncate", "truncate public.contacts"],
    [
      "insert ... returning",
      "insert into public.contacts (name, email, organization, message) values ('a', 'r@example.org', 'o', 'm') returning id",
    ],
  ])("anon cannot %s (42501) and nothing changes", async (_label, sql) => {
    const before = await db().query("select * from public.contacts order by id");
    const error = await rejection(asRole(db(), "anon", (tx) => tx.query(sql)));
    expect(error.code).toBe("42501");
    expect(error.message).toBe("permission denied for table contacts");
    expect((await db().query("select * from public.contacts order by id")).rows).toEqual(
      before.rows,
    );
  });

  test("anon cannot write id (428C9) or created_at (42501)", async () => {
    const before = await countRows(db());
    expect((await rejection(insertAnon({ ...goodRow(), id: 999_999 }))).code).toBe("428C9");
    expect(
      (await rejection(insertAnon({ ...goodRow(), created_at: "2020-01-01T00:00:00Z" }))).code,
    ).toBe("42501");
    expect(await countRows(db())).toBe(before);
  });

  test("anon cannot use the identity sequence or call the trigger functions", async () => {
    expect(
      (
        await rejection(
          asRole(db(), "anon", (tx) => tx.query("select nextval('public.contacts_id_seq')")),
        )
      ).code,
    ).toBe("42501");
    expect(
      (
        await rejection(
          asRole(db(), "anon", (tx) => tx.query("select public.contacts_rate_limit()")),
        )
      ).code,
    ).toBe("42501");
  });

  test.each([
    [
      "insert",
      "insert into public.contacts (name, email, organization, message) values ('a', 'auth@example.org', 'o', 'm')",
    ],
    ["select", "select * from public.contacts"],
    ["update", "update public.contacts set name = 'x'"],
    ["delete", "delete from public.contacts"],
  ])("authenticated cannot %s", async (_label, sql) => {
    const before = await countRows(db());
    const error = await rejection(asRole(db(), "authenticated", (tx) => tx.query(sql)));
    expect(error.code).toBe("42501");
    expect(await countRows(db())).toBe(before);
  });

  test("service_role can read, update and delete (staff access), unlimited", async () => {
    const email = uniqueEmail("staff");
    await asRole(db(), "service_role", async (tx) => {
      // Bulk insert: neither the one-row rule nor the rate limit applies to staff.
      for (let i = 0; i < 7; i += 1) await insertAs(tx, goodRow({ email }));
      await tx.query(
        "insert into public.contacts (name, email, organization, message) select name, email, organization, message from public.contacts where email = $1 limit 2",
        [email],
      );
      const read = await tx.query<{ n: number }>(
        "select count(*)::int as n from public.contacts where email = $1",
        [email],
      );
      expect(read.rows[0]!.n).toBe(9);
      await tx.query("update public.contacts set organization = 'Updated' where email = $1", [
        email,
      ]);
      await tx.query("delete from public.contacts where email = $1", [email]);
    });
    const left = await db().query("select 1 from public.contacts where email = $1", [email]);
    expect(left.rows).toHaveLength(0);
  });
});

describe("CHECK constraints use the limits from src/lib/field-limits.ts", () => {
  test.each(["name", "organization", "message"] as const)(
    "%s: 1 to the limit accepted, empty and limit+1 refused",
    async (column) => {
      const limit = CONTACT_COLUMN_LIMITS[column];
      await insertAnon(goodRow({ [column]: "x" }));
      await insertAnon(goodRow({ [column]: "x".repeat(limit) }));
      // Characters, not bytes or UTF-16 units: the limit in emoji (4 bytes, 2 units each) also fits.
      await insertAnon(goodRow({ [column]: "🚌".repeat(limit) }));
      const tooLong = await rejection(insertAnon(goodRow({ [column]: "x".repeat(limit + 1) })));
      expect(tooLong.code).toBe("23514");
      expect(tooLong.message).toContain(`contacts_${column}_length`);
      const empty = await rejection(insertAnon(goodRow({ [column]: "" })));
      expect(empty.code).toBe("23514");
      const missing = await rejection(insertAnon(goodRow({ [column]: null })));
      expect(missing.code).toBe("23502");
    },
  );

  test("email: up to the limit accepted, limit+1 refused", async () => {
    const limit = CONTACT_COLUMN_LIMITS.email;
    const domain = "@example.org";
    const exact = `${"a".repeat(limit - domain.length)}${domain}`;
    expect(exact).toHaveLength(limit);
    await insertAnon(goodRow({ email: exact }));
    const tooLong = await rejection(insertAnon(goodRow({ email: `b${exact}` })));
    expect(tooLong.code).toBe("23514");
    expect(tooLong.message).toContain("contacts_email_length");
  });

  test.each(["a@b.co", "first.last+tag@sub.example.org", "ÜNICODE@bücher.de", "x@y.z"])(
    "email %p has a plausible shape",
    async (email) => {
      await insertAnon(goodRow({ email }));
    },
  );

  test.each([
    "",
    "plain",
    "no-at.example.org",
    "a@b",
    "a@@b.co",
    "a b@c.de",
    "a@b .co",
    " a@b.co",
    "a@b.co ",
    "a@b.co\n",
    "@b.co",
    "a@.",
    "a@b.",
  ])("email %p is refused", async (email) => {
    const error = await rejection(insertAnon(goodRow({ email })));
    expect(error.code).toBe("23514");
  });

  test.each([" ", "   ", "\t\n", "\u00a0", "\u3000", "\u2003\ufeff", "\u2028"])(
    "blank name/organization %j is refused",
    async (blank) => {
      expect((await rejection(insertAnon(goodRow({ name: blank })))).message).toContain(
        "contacts_name_not_blank",
      );
      expect((await rejection(insertAnon(goodRow({ organization: blank })))).message).toContain(
        "contacts_organization_not_blank",
      );
    },
  );

  test("names with surrounding spaces are kept as sent", async () => {
    const row = goodRow({ name: "  Ada  " });
    await insertAnon(row);
    const stored = await db().query("select name from public.contacts where email = $1", [
      row.email,
    ]);
    expect(stored.rows[0]).toEqual({ name: "  Ada  " });
  });
});

describe("text round-trips exactly", () => {
  test.each(TRICKY_TEXT.map((text) => [text]))("%j", async (text) => {
    const row = goodRow({ name: text, organization: text, message: text });
    await insertAnon(row);
    const stored = await db().query(
      "select name, organization, message from public.contacts where email = $1",
      [row.email],
    );
    expect(stored.rows).toEqual([{ name: text, organization: text, message: text }]);
  });
});

describe("one request inserts one row", () => {
  test("a multi-row insert by anon is refused with PT400 and stores nothing", async () => {
    const before = await countRows(db());
    const error = await rejection(
      asRole(db(), "anon", (tx) =>
        tx.query(
          "insert into public.contacts (name, email, organization, message) values ('a', $1, 'o', 'm'), ('b', $2, 'o', 'm')",
          [uniqueEmail(), uniqueEmail()],
        ),
      ),
    );
    expect(error.code).toBe("PT400");
    expect(error.message).toBe("Only one meeting request can be submitted at a time");
    expect(await countRows(db())).toBe(before);
  });

  test("two single-row statements in one transaction are two requests (both kept)", async () => {
    const before = await countRows(db());
    await asRole(db(), "anon", async (tx) => {
      await insertAs(tx, goodRow());
      await insertAs(tx, goodRow());
    });
    expect(await countRows(db())).toBe(before + 2);
  });
});

describe("at most 5 requests per e-mail address per hour", () => {
  test("the 6th is refused with PT429; case and other addresses do not matter", async () => {
    const email = uniqueEmail("Rate.Limit");
    const variants = [email, email.toLowerCase(), email.toUpperCase(), email, email.toLowerCase()];
    for (const variant of variants) await insertAnon(goodRow({ email: variant }));
    const before = await countRows(db());
    const error = await rejection(insertAnon(goodRow({ email: email.toUpperCase() })));
    expect(error.code).toBe("PT429");
    expect(error.message).toBe("Too many meeting requests from this e-mail address");
    expect(await countRows(db())).toBe(before);
    // Another address is not affected.
    await insertAnon(goodRow());
    expect(await countRows(db())).toBe(before + 1);
  });

  test("requests older than an hour do not count", async () => {
    const email = uniqueEmail("old");
    for (let i = 0; i < 5; i += 1) {
      await db().query(
        "insert into public.contacts (name, email, organization, message, created_at) overriding system value values ('Old', $1, 'O', 'm', now() - interval '61 minutes')",
        [email],
      );
    }
    for (let i = 0; i < 5; i += 1) await insertAnon(goodRow({ email }));
    const error = await rejection(insertAnon(goodRow({ email })));
    expect(error.code).toBe("PT429");
  });
});
