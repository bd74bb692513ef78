/**
 * Rows the insert refuses or stores as PostgREST would, sent with plain fetch to the REST path:
 * field sizes at and past each limit, wrong JSON types, extra and unknown columns, arrays. For each
 * refusal: the expected status and code, nothing stored, and a good insert still served afterwards
 * (bad-input-harness.ts).
 */
import { CONTACT_COLUMN_LIMITS } from "../src/lib/field-limits";
import { badInputBackend, json } from "./bad-input-harness";
import { countRows, goodRow } from "./test-helpers";

jest.setTimeout(90_000);

const backend = badInputBackend();
const { send, expectRefused, expectStored } = backend;

describe("field sizes at and just past each limit", () => {
  test.each(Object.entries(CONTACT_COLUMN_LIMITS))(
    "%s: %i accepted, one more refused (400 / 23514)",
    async (column, limit) => {
      const atLimit =
        column === "email"
          ? `${"a".repeat(limit - "@example.org".length)}@example.org`
          : "y".repeat(limit);
      await expectStored(goodRow({ [column]: atLimit }), {});
      const over = column === "email" ? `a${atLimit}` : `${atLimit}y`;
      await expectRefused(
        () => send(json(goodRow({ [column]: over }))),
        400,
        "23514",
        `contacts_${column}_length`,
      );
    },
  );

  test("a missing field is refused (400 / 23502)", async () => {
    const { message: _omitted, ...rest } = goodRow();
    await expectRefused(() => send(json(rest)), 400, "23502", /null value in column "message"/);
  });
});

describe("wrong JSON types", () => {
  // PostgREST hands the body to PostgreSQL's json_to_record(): scalars become their text,
  // objects and arrays their JSON text, null is NULL. The local backend does the same.
  test("a number, a boolean, an object and an array become text, as with PostgREST", async () => {
    const row = goodRow();
    await expectStored({ ...row, name: 12345 }, { name: "12345" });
    await expectStored({ ...goodRow(), organization: true }, { organization: "true" });
    await expectStored({ ...goodRow(), message: { fleet: 40 } }, { message: '{"fleet":40}' });
    await expectStored({ ...goodRow(), message: [1, "two"] }, { message: '[1,"two"]' });
  });

  test("null for a required field is 400 / 23502", async () => {
    await expectRefused(() => send(json(goodRow({ name: null }))), 400, "23502");
  });

  test("a number as e-mail fails the shape check (400 / 23514)", async () => {
    await expectRefused(
      () => send(json(goodRow({ email: 42 }))),
      400,
      "23514",
      "contacts_email_shape",
    );
  });
});

describe("extra and unknown columns", () => {
  test("an unknown column is 400 / PGRST204", async () => {
    await expectRefused(
      () => send(json({ ...goodRow(), fleet_size: "40" })),
      400,
      "PGRST204",
      "Could not find the 'fleet_size' column of 'contacts' in the schema cache",
    );
  });

  test("writing id is refused (400 / 428C9)", async () => {
    await expectRefused(() => send(json({ ...goodRow(), id: 1 })), 400, "428C9");
  });

  test("writing created_at is refused as a privilege error (401 / 42501)", async () => {
    const sent = await expectRefused(
      () => send(json({ ...goodRow(), created_at: "2020-01-01T00:00:00Z" })),
      401,
      "42501",
    );
    expect(sent.body).toEqual({
      code: "42501",
      message: "permission denied for table contacts",
      details: null,
      hint: null,
    });
  });

  test("with ?columns=, keys not listed are ignored (as PostgREST does)", async () => {
    const row = goodRow();
    const sent = await send(json({ ...row, ignored: "x" }), {
      query: "?columns=name,email,organization,message",
    });
    expect(sent.status).toBe(201);
    const stored = await backend.db.query(
      "select name, email, organization, message from public.contacts where email = $1",
      [row.email],
    );
    expect(stored.rows).toEqual([row]);
  });

  test("an unknown column in ?columns= is 400 / PGRST204", async () => {
    await expectRefused(
      () => send(json(goodRow()), { query: '?columns="name","email","nope"' }),
      400,
      "PGRST204",
    );
  });
});

describe("arrays", () => {
  test.each([2, 10, 500])(
    "%i rows in one request are refused (400 / PT400), none stored",
    async (n) => {
      const rows = Array.from({ length: n }, () => goodRow());
      await expectRefused(
        () => send(json(rows)),
        400,
        "PT400",
        "Only one meeting request can be submitted at a time",
      );
      await expectRefused(
        () => send(json(rows), { query: "?columns=name,email,organization,message" }),
        400,
        "PT400",
      );
    },
  );

  test("objects with different keys are 400 / PGRST102", async () => {
    const { message: _omitted, ...short } = goodRow();
    await expectRefused(
      () => send(json([goodRow(), short])),
      400,
      "PGRST102",
      "All object keys must match",
    );
  });

  test("an empty array inserts nothing (201)", async () => {
    const before = await countRows(backend.db);
    expect((await send("[]")).status).toBe(201);
    expect(await countRows(backend.db)).toBe(before);
  });
});
