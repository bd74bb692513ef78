/**
 * public.contacts (20261128000000_contacts.sql) as a visitor's insert meets it, at each limit of
 * src/lib/field-limits.ts. Every right of anon and authenticated: advisor.test.ts.
 */
import { CONTACT_COLUMN_LIMITS } from "../../src/lib/field-limits";
import { applyScreeningSettings } from "../../local-backend/screening-settings";
import {
  asRole,
  countRows,
  goodRow,
  LIFTED_SCREENING,
  rejection,
  uniqueEmail,
} from "../../local-backend/test-support/helpers";
import { insertAs, migrated, one } from "./harness";

jest.setTimeout(90_000);

// Many direct inserts as anon: the table's own rules are under test, not the screening's caps.
const db = migrated();
beforeAll(() => applyScreeningSettings(db(), LIFTED_SCREENING));

const insertAnon = (row: object) => asRole(db(), "anon", (tx) => insertAs(tx, row));
const STORED = "select name, organization, message from public.contacts where email = $1";
const stored = async (email: string) => (await db().query(STORED, [email])).rows;

/** Text that must survive a round trip unchanged. */
const TRICKY_TEXT: readonly string[] = [
  "Zoë Saldaña-Ñúñez, Łódź, Ærøskøbing",
  "東京都交通局 · 서울교통공사 · 北京公交集团",
  "🚌🚐🚎 transit 👩🏽‍💼 team 🇺🇸",
  "e\u0301 a\u0308 n\u0303 — combining marks (decomposed)",
  "Z\u0351\u0337\u0316a\u0352\u0338l\u036a\u0335g\u036ao",
  "שלום עולם — مرحبا بالعالم (RTL)",
  "\u202eevil\u202c and \u2066isolate\u2069",
  `quotes ' " \` and backslashes \\ \\\\ \\n (literal)`,
  "<script>alert('x')</script> & <b>bold</b> &amp;",
  "'; drop table contacts; --",
  "tab\there\r\nCRLF line\u2028line separator",
  "\u0001\u0007\u001b[31m control characters \u007f\u0085",
];

describe("privileges", () => {
  test("anon inserts the four form columns; id and created_at are filled in", async () => {
    const row = goodRow();
    await insertAnon(row);
    const rows = await db().query("select * from public.contacts where email = $1", [row.email]);
    expect(rows.rows).toEqual([
      { ...row, id: expect.any(Number) as number, created_at: expect.any(Date) as Date },
    ]);
  });

  test("service_role reads, updates and deletes, in bulk and without the rate limit", async () => {
    const email = uniqueEmail("staff");
    await asRole(db(), "service_role", async (tx) => {
      for (let i = 0; i < 7; i += 1) await insertAs(tx, goodRow({ email }));
      await tx.query(
        "insert into public.contacts (name, email, organization, message) select name, email, organization, message from public.contacts where email = $1 limit 2",
        [email],
      );
      const read = await tx.query(
        "select count(*)::int as n from public.contacts where email = $1",
        [email],
      );
      expect(read.rows).toEqual([{ n: 9 }]);
      await tx.query("update public.contacts set organization = 'Updated' where email = $1", [
        email,
      ]);
      await tx.query("delete from public.contacts where email = $1", [email]);
    });
    expect(await stored(email)).toEqual([]);
  });
});

describe("the visitors' policy and the constraints, with the numbers of src/lib/field-limits.ts", () => {
  const {
    name: nameMax,
    organization: orgMax,
    email: emailMax,
    message: messageMax,
  } = CONTACT_COLUMN_LIMITS;
  const exactEmail = `${"a".repeat(emailMax - "@example.org".length)}@example.org`;
  const POLICY = '"Visitors can send a meeting request"';

  const errorOf = async (row: object, constraintsOnly: boolean) =>
    rejection(
      db().transaction(async (tx) => {
        if (constraintsOnly)
          await tx.query(`alter policy ${POLICY} on public.contacts with check (true)`);
        await tx.query("set local role anon");
        await insertAs(tx, row);
      }),
    ) as Promise<Record<string, unknown>>;

  const FIELDS = ["code", "message", "detail", "schema", "table", "column", "constraint"];
  const fields = (error: Record<string, unknown>) =>
    Object.fromEntries(FIELDS.map((field) => [field, error[field]]));
  const label = (row: Record<string, unknown>) =>
    Object.entries(row)
      .map(([column, value]) => `${column} ${JSON.stringify(value)?.slice(0, 16)}`)
      .join(", ");
  const long = (max: number) => "x".repeat(max + 1);
  const BLANKS = [
    " ",
    "   ",
    "\t\n",
    "\u00a0",
    "\u3000",
    "\u2003\ufeff",
    "\u2028",
    " \u00a0\u3000",
    "\t\ufeff",
  ];
  const BAD_EMAILS = [
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
  ];
  const REFUSED: [Record<string, unknown>, string][] = [
    [{ name: long(nameMax) }, "contacts_name_length"],
    [{ organization: long(orgMax) }, "contacts_organization_length"],
    [{ message: long(messageMax) }, "contacts_message_length"],
    [{ email: `b${exactEmail}` }, "contacts_email_length"],
    [{ name: "" }, "contacts_name_length"],
    [{ organization: "" }, "contacts_organization_length"],
    [{ message: "" }, "contacts_message_length"],
    ...BLANKS.flatMap((text): [Record<string, unknown>, string][] => [
      [{ name: text }, "contacts_name_not_blank"],
      [{ organization: text }, "contacts_organization_not_blank"],
    ]),
    ...BAD_EMAILS.map((email): [Record<string, unknown>, string] => [
      { email },
      "contacts_email_shape",
    ]),
    [{ name: null }, "name"],
    [{ email: null }, "email"],
    [{ organization: null }, "organization"],
    [{ message: null }, "message"],
    [{ name: null, email: "x" }, "name"],
    [{ name: " ", email: "x" }, "contacts_email_shape"],
    [{ name: " ", organization: long(orgMax) }, "contacts_name_not_blank"],
    [{ message: "", email: `b${exactEmail}` }, "contacts_email_length"],
    [{ name: "", email: "", organization: "", message: "" }, "contacts_email_shape"],
  ];

  test.each(REFUSED.map(([row, broken]) => [label(row), broken, row] as const))(
    "%s: the policy raises the constraint's own error (%s)",
    async (_label, broken, overrides) => {
      const row = goodRow(overrides);
      const withPolicy = fields(await errorOf(row, false));
      expect(withPolicy).toEqual(fields(await errorOf(row, true)));
      expect(withPolicy.code).toBe(withPolicy.constraint ? "23514" : "23502");
      expect(withPolicy.constraint ?? withPolicy.column).toBe(broken);
    },
  );

  test.each(["name", "organization", "message"] as const)(
    "%s: 1 character, the limit, and the limit in emoji (2 UTF-16 units each) pass",
    async (column) => {
      for (const text of [
        "x",
        "x".repeat(CONTACT_COLUMN_LIMITS[column]),
        "🚌".repeat(CONTACT_COLUMN_LIMITS[column]),
      ])
        await insertAnon(goodRow({ [column]: text }));
    },
  );

  test.each([exactEmail, "a@b.co", "first.last+tag@sub.example.org", "ÜNICODE@bücher.de", "x@y.z"])(
    "email %p passes",
    async (email) => {
      await insertAnon(goodRow({ email }));
    },
  );

  test("the policy's condition is not trivially true", async () => {
    expect(
      await one(
        db(),
        `select pg_get_expr(polwithcheck, polrelid) as value from pg_policy
          where polrelid = 'public.contacts'::regclass and polname = 'Visitors can send a meeting request'`,
      ),
    ).toBe("private.contacts_visitor_request_allowed(name, email, organization, message)");
  });
});

describe("what is stored", () => {
  test.each([...TRICKY_TEXT.map((text) => [text]), ["  Ada  "]])(
    "%j round-trips exactly",
    async (text) => {
      const row = goodRow({ name: text, organization: text, message: text });
      await insertAnon(row);
      expect(await stored(row.email)).toEqual([{ name: text, organization: text, message: text }]);
    },
  );

  test("a multi-row insert by anon is refused with PT400 and stores nothing; two statements are two requests", async () => {
    const before = await countRows(db());
    const error = await rejection(
      asRole(db(), "anon", (tx) =>
        tx.query(
          "insert into public.contacts (name, email, organization, message) values ('a', $1, 'o', 'm'), ('b', $2, 'o', 'm')",
          [uniqueEmail(), uniqueEmail()],
        ),
      ),
    );
    expect(error).toMatchObject({
      code: "PT400",
      message: "Only one meeting request can be submitted at a time",
    });
    expect(await countRows(db())).toBe(before);
    await asRole(db(), "anon", async (tx) => {
      await insertAs(tx, goodRow());
      await insertAs(tx, goodRow());
    });
    expect(await countRows(db())).toBe(before + 2);
  });

  test("the 6th request from an address within an hour is refused with PT429, whatever its case; older ones and other addresses do not count (an index of lower(email) finds them)", async () => {
    const email = uniqueEmail("Rate.Limit");
    await db().query(
      "insert into public.contacts (name, email, organization, message, created_at) overriding system value select 'Old', $1, 'O', 'm', now() - interval '61 minutes' from generate_series(1, 5)",
      [email],
    );
    for (const variant of [
      email,
      email.toLowerCase(),
      email.toUpperCase(),
      email,
      email.toLowerCase(),
    ])
      await insertAnon(goodRow({ email: variant }));
    const before = await countRows(db());
    const error = await rejection(insertAnon(goodRow({ email: email.toUpperCase() })));
    expect(error).toMatchObject({
      code: "PT429",
      message: "Too many meeting requests from this e-mail address",
    });
    expect(await countRows(db())).toBe(before);
    await insertAnon(goodRow());
    expect(await countRows(db())).toBe(before + 1);
    const index =
      "select pg_get_indexdef('public.contacts_email_created_at_idx'::regclass) as value";
    expect(await one(db(), index)).toContain("(lower(email), created_at)");
  });
});
