/**
 * A battery of bad requests sent with plain fetch to the REST path. For each one: the
 * expected status and code, nothing (partial) stored, and the server still serves a good
 * insert afterwards. Then a burst of 500 requests from 50 concurrent clients.
 */
import type { PGlite } from "@electric-sql/pglite";

import { CONTACT_COLUMN_LIMITS } from "../src/lib/field-limits";
import { LOCAL_ANON_KEY } from "../build-time/local-backend-defaults";
import { readRequests } from "./database";
import { startLocalBackend, type LocalBackend } from "./server";
import { countRows, goodRow, liftScreeningCaps, uniqueEmail } from "./test-helpers";

jest.setTimeout(90_000);

let backend: LocalBackend;
let db: PGlite;

beforeAll(async () => {
  backend = await startLocalBackend({ port: 0 });
  db = backend.db;
  // Hundreds of direct requests from one loopback address: the insert path, not the screening.
  await liftScreeningCaps(db);
});

afterAll(async () => {
  await backend?.close();
});

interface Sent {
  status: number;
  body: Record<string, unknown> | null;
  text: string;
}

async function send(
  body: string | Uint8Array | undefined,
  options: { headers?: Record<string, string>; query?: string; method?: string; path?: string } = {},
): Promise<Sent> {
  const response = await fetch(`${backend.url}${options.path ?? "/rest/v1/contacts"}${options.query ?? ""}`, {
    method: options.method ?? "POST",
    headers: { apikey: LOCAL_ANON_KEY, "Content-Type": "application/json", ...options.headers },
    body: body as BodyInit | undefined,
  });
  const text = await response.text();
  let parsed: Record<string, unknown> | null = null;
  try {
    parsed = text ? (JSON.parse(text) as Record<string, unknown>) : null;
  } catch {
    parsed = null;
  }
  return { status: response.status, body: parsed, text };
}

const json = (value: unknown): string => JSON.stringify(value);

/** Sends a bad request; checks its status/code, that nothing was stored, and that a good insert still works. */
async function expectRefused(
  request: () => Promise<Sent>,
  status: number,
  code: string | undefined,
  message?: string | RegExp,
): Promise<Sent> {
  const before = await countRows(db);
  const sent = await request();
  expect({ status: sent.status, code: sent.body?.code }).toEqual({ status, code });
  if (message !== undefined) expect(String(sent.body?.message)).toMatch(message);
  expect(await countRows(db)).toBe(before);
  const good = await send(json(goodRow()));
  expect(good.status).toBe(201);
  expect(await countRows(db)).toBe(before + 1);
  return sent;
}

async function expectStored(payload: object, expected: Record<string, string>): Promise<void> {
  const email = (expected.email ?? (payload as { email: string }).email) as string;
  const sent = await send(json(payload));
  expect(sent.status).toBe(201);
  expect(sent.text).toBe("");
  const stored = (await readRequests(db)).filter((request) => request.email === email);
  expect(stored.map(({ name, email, organization, message }) => ({ name, email, organization, message }))).toEqual([
    { ...payload, ...expected },
  ]);
}

describe("field sizes at and just past each limit", () => {
  test.each(Object.entries(CONTACT_COLUMN_LIMITS))("%s: %i accepted, one more refused (400 / 23514)", async (column, limit) => {
    const atLimit =
      column === "email" ? `${"a".repeat(limit - "@example.org".length)}@example.org` : "y".repeat(limit);
    await expectStored(goodRow({ [column]: atLimit }), {});
    const over = column === "email" ? `a${atLimit}` : `${atLimit}y`;
    await expectRefused(() => send(json(goodRow({ [column]: over }))), 400, "23514", `contacts_${column}_length`);
  });

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
    await expectRefused(() => send(json(goodRow({ email: 42 }))), 400, "23514", "contacts_email_shape");
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
    const sent = await expectRefused(() => send(json({ ...goodRow(), created_at: "2020-01-01T00:00:00Z" })), 401, "42501");
    expect(sent.body).toEqual({ code: "42501", message: "permission denied for table contacts", details: null, hint: null });
  });

  test("with ?columns=, keys not listed are ignored (as PostgREST does)", async () => {
    const row = goodRow();
    const sent = await send(json({ ...row, ignored: "x" }), { query: "?columns=name,email,organization,message" });
    expect(sent.status).toBe(201);
    const stored = await db.query("select name, email, organization, message from public.contacts where email = $1", [row.email]);
    expect(stored.rows).toEqual([row]);
  });

  test("an unknown column in ?columns= is 400 / PGRST204", async () => {
    await expectRefused(() => send(json(goodRow()), { query: '?columns="name","email","nope"' }), 400, "PGRST204");
  });
});

describe("arrays", () => {
  test.each([2, 10, 500])("%i rows in one request are refused (400 / PT400), none stored", async (n) => {
    const rows = Array.from({ length: n }, () => goodRow());
    await expectRefused(() => send(json(rows)), 400, "PT400", "Only one meeting request can be submitted at a time");
    await expectRefused(() => send(json(rows), { query: "?columns=name,email,organization,message" }), 400, "PT400");
  });

  test("objects with different keys are 400 / PGRST102", async () => {
    const { message: _omitted, ...short } = goodRow();
    await expectRefused(() => send(json([goodRow(), short])), 400, "PGRST102", "All object keys must match");
  });

  test("an empty array inserts nothing (201)", async () => {
    const before = await countRows(db);
    expect((await send("[]")).status).toBe(201);
    expect(await countRows(db)).toBe(before);
  });
});

describe("malformed bodies and headers", () => {
  test.each([
    ["invalid JSON", '{"name": "Ada",'],
    ["empty body", ""],
    ["single quotes", "{'name': 'Ada'}"],
    ["a raw control character inside a string", '{"name":"a\u0001b","email":"x@example.org","organization":"o","message":"m"}'],
  ])("%s is 400 / PGRST102", async (_label, body) => {
    await expectRefused(() => send(body), 400, "PGRST102", "Empty or invalid json");
  });

  test("invalid UTF-8 is 400 / PGRST102", async () => {
    const bytes = Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]);
    await expectRefused(() => send(bytes), 400, "PGRST102");
  });

  test("a JSON scalar inserts nothing (201), as PostgREST treats it as an empty array", async () => {
    const before = await countRows(db);
    expect((await send("42")).status).toBe(201);
    expect(await countRows(db)).toBe(before);
  });

  test("a wrong content type is 400 / PGRST102 (what PostgREST answers, not 415)", async () => {
    await expectRefused(
      () => send(json(goodRow()), { headers: { "Content-Type": "text/plain" } }),
      400,
      "PGRST102",
      "Content-Type not acceptable: text/plain",
    );
  });

  test("a form-encoded body is accepted, as PostgREST accepts it", async () => {
    const row = goodRow();
    const sent = await send(new URLSearchParams({ ...row }).toString(), {
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(sent.status).toBe(201);
    expect((await db.query("select 1 from public.contacts where email = $1", [row.email])).rows).toHaveLength(1);
  });

  test("a body over 1 MB is 413", async () => {
    const big = json(goodRow({ message: "m".repeat(1024 * 1024) }));
    const sent = await expectRefused(() => send(big), 413, undefined);
    expect(sent.body).toEqual({ message: "Request size limit exceeded" });
  });

  test("a body just under 1 MB reaches the database (400 / 23514, not 413)", async () => {
    const row = goodRow();
    const padding = 1024 * 1024 - Buffer.byteLength(json({ ...row, message: "" }));
    const body = json({ ...row, message: "m".repeat(padding) });
    expect(Buffer.byteLength(body)).toBe(1024 * 1024);
    await expectRefused(() => send(body), 400, "23514", "contacts_message_length");
  });

  test("a missing apikey is 401 from the gateway", async () => {
    const sent = await expectRefused(() => send(json(goodRow()), { headers: { apikey: "" } }), 401, undefined);
    expect(sent.body).toEqual({ message: "No API key found in request", hint: "No `apikey` request header or url param was found." });
  });

  test("an Authorization bearer that is not the anon key is 401 / PGRST301", async () => {
    await expectRefused(() => send(json(goodRow()), { headers: { Authorization: "Bearer something.else.entirely" } }), 401, "PGRST301");
  });

  test("the anon key as ?apikey= is accepted, like the gateway accepts it", async () => {
    const response = await fetch(`${backend.url}/rest/v1/contacts?apikey=${encodeURIComponent(LOCAL_ANON_KEY)}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: json(goodRow()),
    });
    expect(response.status).toBe(201);
  });

  test("a schema other than public is 406 / PGRST106", async () => {
    await expectRefused(() => send(json(goodRow()), { headers: { "Content-Profile": "private" } }), 406, "PGRST106");
  });

  test("other paths and methods", async () => {
    await expectRefused(() => send(json(goodRow()), { path: "/rest/v1/contacts/1" }), 404, "PGRST125");
    await expectRefused(() => send(json(goodRow()), { path: "/rest/v1/users" }), 404, "PGRST205");
    await expectRefused(() => send(json(goodRow()), { path: "/auth/v1/signup" }), 404, undefined, "no Route matched with those values");
    await expectRefused(() => send(json(goodRow()), { method: "PUT" }), 405, "PGRST117", "Unsupported HTTP method: PUT");
    await expectRefused(() => send(undefined, { method: "GET" }), 401, "42501");
    await expectRefused(() => send(json({ name: "x" }), { method: "PATCH" }), 401, "42501");
    await expectRefused(() => send(undefined, { method: "DELETE" }), 401, "42501");
  });
});

describe("unicode edge cases", () => {
  test.each([
    ["combining marks", "Jose\u0301 Mu\u0308ller, A\u030angstro\u0308m"],
    ["RTL text and marks", "\u05e9\u05dc\u05d5\u05dd \u200f\u0645\u0631\u062d\u0628\u0627\u200e"],
    ["emoji with ZWJ, skin tones and flags", "👩🏽‍💼🧑‍🦯🚌🇨🇦🏳️‍🌈"],
    ["astral plane letters", "𝔗𝔯𝔞𝔫𝔰𝔦𝔱 𠜎𠜱"],
    ["escaped surrogate pair", "\ud83d\ude8c"],
    ["C0 control characters (not NUL)", "\u0001\u0002\u0007\b\f\u000b\u001b[2J\u001f"],
    ["DEL and C1 controls", "\u007f\u0080\u009b"],
    ["noncharacters and BOM", "\ufeff\uffff\ufffe"],
  ])("%s round-trip exactly", async (_label, text) => {
    await expectStored(goodRow({ name: text, organization: text, message: text }), {});
  });

  test("a lone surrogate is refused by PostgreSQL's JSON parser (400 / 22P02)", async () => {
    const row = goodRow();
    const body = json({ ...row, name: "PLACEHOLDER" }).replace("PLACEHOLDER", "\\ud800");
    const sent = await expectRefused(() => send(body), 400, "22P02", "invalid input syntax for type json");
    expect(sent.body?.details).toBe("Unicode low surrogate must follow a high surrogate.");
    const low = json({ ...goodRow(), name: "PLACEHOLDER" }).replace("PLACEHOLDER", "x\\udc00y");
    await expectRefused(() => send(low), 400, "22P02");
  });

  test("NUL is refused (400 / 22P05): PostgreSQL text cannot hold it", async () => {
    const sent = await expectRefused(() => send(json(goodRow({ message: "before\u0000after" }))), 400, "22P05");
    expect(sent.body).toEqual({
      code: "22P05",
      message: "unsupported Unicode escape sequence",
      details: "\\u0000 cannot be converted to text.",
      hint: null,
    });
  });
});

describe("a burst: 500 requests from 50 concurrent clients", () => {
  test("every accepted request is stored exactly once; every refused one says why", async () => {
    const run = Date.now().toString(36);
    const plan: { email: string; marker: string }[] = [];
    // 90 addresses × 5 requests (all within the limit) + 5 addresses × 10 (5 over the limit each).
    for (let a = 0; a < 95; a += 1) {
      const email = `burst-${run}-${a}@example.org`;
      const times = a < 90 ? 5 : 10;
      for (let t = 0; t < times; t += 1) plan.push({ email, marker: `burst ${run} #${plan.length}` });
    }
    expect(plan).toHaveLength(500);
    // Shuffle so requests for one address overlap in time.
    for (let i = plan.length - 1; i > 0; i -= 1) {
      const j = Math.floor(Math.random() * (i + 1));
      [plan[i], plan[j]] = [plan[j]!, plan[i]!];
    }
    const outcomes = new Map<string, Sent>();
    let next = 0;
    const started = Date.now();
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        while (next < plan.length) {
          const item = plan[next]!;
          next += 1;
          outcomes.set(item.marker, await send(json(goodRow({ email: item.email, message: item.marker }))));
        }
      }),
    );
    const elapsed = Date.now() - started;

    const stored = await db.query<{ message: string; n: number }>(
      "select message, count(*)::int as n from public.contacts where message like $1 group by message",
      [`burst ${run} #%`],
    );
    const storedCount = new Map(stored.rows.map((row) => [row.message, row.n]));
    const accepted = [...outcomes].filter(([, sent]) => sent.status === 201);
    const refused = [...outcomes].filter(([, sent]) => sent.status !== 201);
    expect(accepted).toHaveLength(475);
    expect(refused).toHaveLength(25);
    for (const [marker] of accepted) expect(storedCount.get(marker)).toBe(1);
    for (const [marker, sent] of refused) {
      expect(sent.status).toBe(429);
      expect(sent.body).toMatchObject({ code: "PT429", message: "Too many meeting requests from this e-mail address" });
      expect(storedCount.has(marker)).toBe(false);
    }
    expect(stored.rows).toHaveLength(475);
    const perAddress = await db.query<{ n: number }>(
      "select count(*)::int as n from public.contacts where email like $1 group by lower(email)",
      [`burst-${run}-%`],
    );
    expect(perAddress.rows.every((row) => row.n === 5)).toBe(true);
    // A figure, not a test: timings on shared machines are too noisy to assert.
    console.log(`burst: 500 requests from 50 clients in ${elapsed} ms (${Math.round(500 / (elapsed / 1000))} requests/s): ${accepted.length} stored once each, ${refused.length} refused with 429 / PT429`);
    // Still serving.
    expect((await send(json(goodRow({ email: uniqueEmail("after-burst") })))).status).toBe(201);
  });
});
