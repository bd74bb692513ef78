/**
 * Requests the REST path refuses before or instead of an insert, sent with plain fetch: malformed
 * bodies, wrong content types, sizes around 1 MB, API keys, schemas, other paths and methods. For
 * each refusal: the expected status and code, nothing stored, and a good insert still served
 * afterwards (bad-input-harness.ts).
 */
import { LOCAL_ANON_KEY } from "../build-time/local-backend-defaults";
import { badInputBackend, json } from "./bad-input-harness";
import { countRows, goodRow } from "./test-helpers";

jest.setTimeout(90_000);

const backend = badInputBackend();
const { send, expectRefused } = backend;

describe("malformed bodies and headers", () => {
  test.each([
    ["invalid JSON", '{"name": "Ada",'],
    ["empty body", ""],
    ["single quotes", "{'name': 'Ada'}"],
    [
      "a raw control character inside a string",
      '{"name":"a\u0001b","email":"x@example.org","organization":"o","message":"m"}',
    ],
  ])("%s is 400 / PGRST102", async (_label, body) => {
    await expectRefused(() => send(body), 400, "PGRST102", "Empty or invalid json");
  });

  test("invalid UTF-8 is 400 / PGRST102", async () => {
    const bytes = Buffer.concat([
      Buffer.from('{"name":"'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('"}'),
    ]);
    await expectRefused(() => send(bytes), 400, "PGRST102");
  });

  test("a JSON scalar inserts nothing (201), as PostgREST treats it as an empty array", async () => {
    const before = await countRows(backend.db);
    expect((await send("42")).status).toBe(201);
    expect(await countRows(backend.db)).toBe(before);
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
    expect(
      (await backend.db.query("select 1 from public.contacts where email = $1", [row.email])).rows,
    ).toHaveLength(1);
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
    const sent = await expectRefused(
      () => send(json(goodRow()), { headers: { apikey: "" } }),
      401,
      undefined,
    );
    expect(sent.body).toEqual({
      message: "No API key found in request",
      hint: "No `apikey` request header or url param was found.",
    });
  });

  test("an Authorization bearer that is not the anon key is 401 / PGRST301", async () => {
    await expectRefused(
      () => send(json(goodRow()), { headers: { Authorization: "Bearer something.else.entirely" } }),
      401,
      "PGRST301",
    );
  });

  test("the anon key as ?apikey= is accepted, like the gateway accepts it", async () => {
    const response = await fetch(
      `${backend.url}/rest/v1/contacts?apikey=${encodeURIComponent(LOCAL_ANON_KEY)}`,
      {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: json(goodRow()),
      },
    );
    expect(response.status).toBe(201);
  });

  test("a schema other than public is 406 / PGRST106", async () => {
    await expectRefused(
      () => send(json(goodRow()), { headers: { "Content-Profile": "private" } }),
      406,
      "PGRST106",
    );
  });

  test("other paths and methods", async () => {
    await expectRefused(
      () => send(json(goodRow()), { path: "/rest/v1/contacts/1" }),
      404,
      "PGRST125",
    );
    await expectRefused(() => send(json(goodRow()), { path: "/rest/v1/users" }), 404, "PGRST205");
    await expectRefused(
      () => send(json(goodRow()), { path: "/auth/v1/signup" }),
      404,
      undefined,
      "no Route matched with those values",
    );
    await expectRefused(
      () => send(json(goodRow()), { method: "PUT" }),
      405,
      "PGRST117",
      "Unsupported HTTP method: PUT",
    );
    await expectRefused(() => send(undefined, { method: "GET" }), 401, "42501");
    await expectRefused(() => send(json({ name: "x" }), { method: "PATCH" }), 401, "42501");
    await expectRefused(() => send(undefined, { method: "DELETE" }), 401, "42501");
  });
});
