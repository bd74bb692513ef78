/**
 * PostgREST's part, sent with plain fetch as a script would: what the insert refuses (PostgREST's
 * status, code and message) and stores, the SQLSTATE → HTTP mapping, and `rpc/<function>` calls.
 * Each column's limit is supabase/tests/contacts.test's; one body of exactly 1 MiB checks it here.
 */
import { createClient } from "@supabase/supabase-js";

import { LOCAL_ANON_KEY } from "../build-time/local-backend-defaults";
import { statusForSqlState } from "./postgrest";
import { countRows, goodRow } from "./test-support/helpers";
import { json, restTestBackend, type SendOptions } from "./test-support/rest-client";

jest.setTimeout(90_000);

const { backend, send, expectRefused, expectStored } = restTestBackend();

const { message: _message, ...withoutMessage } = goodRow();
const exactlyOneMiB = (() => {
  const row = goodRow();
  const padding = 1024 * 1024 - Buffer.byteLength(json({ ...row, message: "" }));
  return json({ ...row, message: "m".repeat(padding) });
})();
/** The JSON of a good row with `text` written raw (unescaped by JSON.stringify) as its name. */
const rawName = (text: string): string =>
  json(goodRow({ name: "RAW" })).replace('"RAW"', `"${text}"`);

type Request = string | Uint8Array | ({ body?: string } & SendOptions);

/** Test rows: each request, the status, code and message (or a part of it) of its refusal. */
const refused = (
  status: number,
  code: string,
  message: string | RegExp,
  requests: Record<string, Request>,
) =>
  Object.entries(requests).map(
    ([label, request]) => [label, status, code, message, request] as const,
  );

const invalidUtf8 = Buffer.concat([
  Buffer.from('{"name":"'),
  Buffer.from([0xc3, 0x28, 0x22, 0x7d]),
]);
const denied = "permission denied for table contacts";

const INSERT_REFUSALS = [
  ...refused(400, "PGRST102", "Empty or invalid json", {
    "invalid JSON": '{"name": "Ada",',
    "an empty body": "",
    "single quotes": "{'name': 'Ada'}",
    "a raw control character inside a string": rawName("a\u0001b"),
    "invalid UTF-8": invalidUtf8,
  }),
  ...refused(400, "PGRST102", "Content-Type not acceptable: text/plain", {
    "a content type other than JSON": {
      body: json(goodRow()),
      headers: { "Content-Type": "text/plain" },
    },
  }),
  ...refused(400, "PGRST102", "All object keys must match", {
    "rows with different keys": json([goodRow(), withoutMessage]),
  }),
  ...refused(400, "23514", "contacts_message_length", {
    "a body of exactly 1 MiB (reaches the database)": exactlyOneMiB,
  }),
  ...refused(400, "23514", "contacts_email_shape", {
    "a number as e-mail": json(goodRow({ email: 42 })),
  }),
  ...refused(400, "23502", /null value in column "(message|name)"/, {
    "a missing field": json(withoutMessage),
    "null for a required field": json(goodRow({ name: null })),
  }),
  ...refused(
    400,
    "PGRST204",
    "Could not find the 'fleet_size' column of 'contacts' in the schema cache",
    {
      "an unknown column": json({ ...goodRow(), fleet_size: "40" }),
    },
  ),
  ...refused(400, "428C9", 'cannot insert a non-DEFAULT value into column "id"', {
    "writing id": json({ ...goodRow(), id: 1 }),
  }),
  ...refused(400, "PT400", "Only one meeting request can be submitted at a time", {
    "2 rows in one request": json([goodRow(), goodRow()]),
  }),
  ...refused(400, "22P02", "invalid input syntax for type json", {
    "a lone high surrogate": rawName("\\ud800"),
    "a lone low surrogate": rawName("x\\udc00y"),
  }),
  ...refused(400, "22P05", "unsupported Unicode escape sequence", {
    NUL: json(goodRow({ message: "a\u0000b" })),
  }),
  ...refused(401, "42501", denied, {
    "writing created_at": json({ ...goodRow(), created_at: "2020-01-01T00:00:00Z" }),
    "an insert asking for the row back (supabase-js .insert().select())": {
      body: json(goodRow()),
      headers: { Prefer: "return=representation" },
    },
    "a read (GET)": { method: "GET" },
    "an update (PATCH)": { body: json({ name: "x" }), method: "PATCH" },
    "a delete": { method: "DELETE" },
  }),
  ...refused(405, "PGRST117", "Unsupported HTTP method: PUT", {
    PUT: { body: json(goodRow()), method: "PUT" },
  }),
  ...refused(404, "PGRST125", "Invalid path specified in request URL", {
    "a path below the table": { body: json(goodRow()), path: "/rest/v1/contacts/1" },
  }),
  ...refused(404, "PGRST205", "Could not find the table 'public.users' in the schema cache", {
    "another table": { body: json(goodRow()), path: "/rest/v1/users" },
  }),
];

describe("the insert refuses, as PostgREST does", () => {
  test.each(INSERT_REFUSALS)("%s: %i %s", async (_label, status, code, message, request) => {
    const { body, ...options } =
      typeof request === "string" || request instanceof Uint8Array ? { body: request } : request;
    await expectRefused(body, options, { status, code, message });
  });

  test.each([
    ["a lone surrogate", rawName("\\ud800"), "Unicode low surrogate must follow a high surrogate."],
    ["NUL", json(goodRow({ message: "a\u0000b" })), "\\u0000 cannot be converted to text."],
    ["created_at", json({ ...goodRow(), created_at: "2020-01-01T00:00:00Z" }), null],
  ])("a database's refusal carries its details: %s", async (_label, body, details) => {
    expect((await send(body)).body).toMatchObject({ details, hint: null });
  });
});

describe("the insert stores, as PostgREST does", () => {
  test.each([
    ["a number", { name: 12345 }, { name: "12345" }],
    ["a boolean", { organization: true }, { organization: "true" }],
    ["an object", { message: { fleet: 40 } }, { message: '{"fleet":40}' }],
    ["an array", { message: [1, "two"] }, { message: '[1,"two"]' }],
  ])("%s for a text column as its text", async (_label, value, stored) => {
    await expectStored({ ...goodRow(), ...value }, stored);
  });

  test.each([
    ["combining marks", "Jose\u0301 Mu\u0308ller, A\u030angstro\u0308m"],
    ["RTL text and marks", "\u05e9\u05dc\u05d5\u05dd \u200f\u0645\u0631\u062d\u0628\u0627\u200e"],
    ["emoji with ZWJ, skin tones and flags", "👩🏽‍💼🧑‍🦯🚌🇨🇦🏳️‍🌈"],
    ["astral plane letters", "𝔗𝔯𝔞𝔫𝔰𝔦𝔱 𠜎𠜱"],
    ["an escaped surrogate pair", "\ud83d\ude8c"],
    ["C0 control characters (not NUL)", "\u0001\u0002\u0007\b\f\u000b\u001b[2J\u001f"],
    ["DEL and C1 controls", "\u007f\u0080\u009b"],
    ["noncharacters and a BOM", "\ufeff\uffff\ufffe"],
  ])("%s round-trip exactly", async (_label, text) => {
    await expectStored(goodRow({ name: text, organization: text, message: text }));
  });

  test.each([
    ["a JSON scalar (PostgREST reads it as an empty array)", "42", 0],
    ["an empty array (the page's warm-up)", "[]", 0],
    ["an array of one row", json([goodRow()]), 1],
  ])("%s: 201, %i rows stored", async (_label, body, added) => {
    const before = await countRows(backend().db);
    expect((await send(body)).status).toBe(201);
    expect(await countRows(backend().db)).toBe(before + added);
  });
});

test.each([
  [400, ["23514", "23502", "22001", "22P02", "22P05", "428C9", "P0001", "PT400"]],
  [401, ["42501"]], // for anon; 403 for the service role
  [404, ["42P01", "42883"]],
  [405, ["25006"]],
  [409, ["23505", "23503"]],
  [429, ["PT429"]],
  [500, ["P0002", "PTabc", "53400", "57014", "40001", "XX000"]],
  [503, ["53100", "08006", "57P01"]],
])("SQLSTATE → HTTP as PostgREST's mapSQLtoHTTP: %i for %j", (status, codes) => {
  for (const code of codes) expect([code, statusForSqlState(code, "anon")]).toEqual([code, status]);
  expect(statusForSqlState("42501", "service_role")).toBe(403);
});

const FUNCTIONS_SQL = `
create function public.rpc_test_named(word text, times integer default 2)
  returns jsonb language sql stable as $$ select jsonb_build_object('said', repeat(word, times), 'role', current_user) $$;
create function public.rpc_test_body(text) returns text language sql immutable as $$ select upper($1) $$;
create function public.rpc_test_rows(upto integer) returns table (n integer) language sql immutable as $$ select generate_series(1, upto) $$;
create function public.rpc_test_nothing() returns void language sql as $$ select $$;
create function public.rpc_test_header() returns text language sql stable
  as $$ select current_setting('request.headers', true)::json ->> 'x-test-header' $$;
create function public.rpc_test_private() returns integer language sql as $$ select 1 $$;
create function public.rpc_test_raises() returns integer language plpgsql as $$
  begin raise exception using errcode = 'PT429', message = 'slow down'; end $$;
revoke all on function public.rpc_test_private() from public, anon;
grant execute on function public.rpc_test_named(text, integer), public.rpc_test_body(text),
  public.rpc_test_rows(integer), public.rpc_test_nothing(), public.rpc_test_header(), public.rpc_test_raises() to anon;
create schema rpc_hidden;
create function rpc_hidden.f() returns int language sql as $$ select 1 $$;
`;

describe("rpc/<function>, called as anon", () => {
  beforeAll(() => backend().db.exec(FUNCTIONS_SQL));

  const call = (
    name: string,
    body: string | undefined,
    options: Omit<Parameters<typeof send>[1], "path"> = {},
  ) => send(body, { ...options, path: `/rest/v1/rpc/${name}` });

  test.each<[string, string, number, unknown, Record<string, string>?]>([
    ["rpc_test_named", '{"word": "ab"}', 200, { said: "abab", role: "anon" }], // a default left out
    ["rpc_test_body", "hello", 200, "HELLO", { "Content-Type": "text/plain;charset=UTF-8" }],
    ["rpc_test_rows", '{"upto": 3}', 200, [{ n: 1 }, { n: 2 }, { n: 3 }]],
    ["rpc_test_nothing", "{}", 204, null],
    ["rpc_test_header", "{}", 200, "seen", { "X-Test-Header": "seen" }], // from request.headers
    ["rpc_test_missing", "{}", 404, { code: "PGRST202" }],
    ["rpc_test_named", '{"colour": "red"}', 404, { code: "PGRST202" }],
    ["f", "{}", 404, { code: "PGRST202" }], // rpc_hidden.f: only schema public is exposed
    ["rpc_test_private", "{}", 401, { code: "42501" }],
    ["rpc_test_raises", "{}", 429, { code: "PT429", message: "slow down" }],
    ["rpc_test_named", "{nope", 400, { code: "PGRST102" }],
  ])("%s %s → %i", async (name, body, status, answer, headers = {}) => {
    const sent = await call(name, body, { headers });
    expect(sent.status).toBe(status);
    if (status >= 400) expect(sent.body).toMatchObject(answer as object);
    else expect(sent.body).toEqual(answer);
  });

  test("GET is refused (405 PGRST117); supabase-js .rpc() gets what fetch gets", async () => {
    expect(await call("rpc_test_nothing", undefined, { method: "GET" })).toMatchObject({
      status: 405,
      body: { code: "PGRST117" },
    });
    const supabase = createClient(backend().url, LOCAL_ANON_KEY, {
      accessToken: async () => LOCAL_ANON_KEY, // the page's supabase-js has no auth client
    });
    const { data, error } = await supabase.rpc("rpc_test_named", { word: "x", times: 3 });
    expect({ data, error }).toEqual({ data: { said: "xxx", role: "anon" }, error: null });
  });
});
