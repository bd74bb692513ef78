/**
 * The one listener as the site and its function use it: supabase-js `from('contacts').insert(row)`
 * with the anon key; the gateway's refusals (keys, size, routes) with its own messages; CORS; the
 * service-role key; `/local-admin/contacts`; and `/functions/v1/<name>` passed to a function.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

import { createClient, type SupabaseClient } from "@supabase/supabase-js";

import { LOCAL_ANON_KEY } from "../build-time/local-backend-defaults";
import { countRows, goodRow, uniqueEmail } from "./test-support/helpers";
import { json, restTestBackend } from "./test-support/rest-client";

jest.setTimeout(60_000);

const { backend, send, expectRefused } = restTestBackend();
const client = (key = LOCAL_ANON_KEY): SupabaseClient =>
  createClient(backend().url, key, { auth: { persistSession: false, autoRefreshToken: false } });

describe("supabase-js against the local backend", () => {
  test("a good insert: error null, 201, and the row stored; on 127.0.0.1 and a free port", async () => {
    expect(backend().url).toBe(`http://127.0.0.1:${backend().port}`);
    const row = goodRow();
    const result = await client().from("contacts").insert(row);
    expect({ error: result.error, status: result.status, data: result.data }).toEqual({
      error: null,
      status: 201,
      data: null,
    });
    const stored = await backend().db.query(
      "select name, email, organization, message from public.contacts where email = $1",
      [row.email],
    );
    expect(stored.rows).toEqual([row]);
  });

  test.each([
    ["a wrong API key", "not-the-anon-key", [goodRow()], 401, { message: "Invalid API key" }],
    [
      "two rows (sent with ?columns=)",
      LOCAL_ANON_KEY,
      [goodRow(), goodRow()],
      400,
      { code: "PT400", message: "Only one meeting request can be submitted at a time" },
    ],
  ])("%s is refused, nothing stored", async (_label, key, rows, status, error) => {
    const before = await countRows(backend().db);
    const result = await client(key).from("contacts").insert(rows);
    expect({ status: result.status, error: result.error }).toMatchObject({ status, error });
    expect(await countRows(backend().db)).toBe(before);
  });

  test("an array of one row is stored; the 6th request for one address within the hour is 429 PT429", async () => {
    expect((await client().from("contacts").insert([goodRow()])).status).toBe(201);
    const email = uniqueEmail("six");
    for (let i = 0; i < 5; i += 1)
      expect((await client().from("contacts").insert(goodRow({ email }))).error).toBeNull();
    const sixth = await client().from("contacts").insert(goodRow({ email }));
    expect({ status: sixth.status, error: sixth.error }).toMatchObject({
      status: 429,
      error: { code: "PT429", message: "Too many meeting requests from this e-mail address" },
    });
  });

  test("reading, updating, deleting and .select() after insert: 401 42501, nothing changed", async () => {
    const before = await backend().db.query("select * from public.contacts order by id");
    const contacts = () => client().from("contacts");
    for (const result of [
      await contacts().select("*"),
      await contacts().update({ name: "x" }).eq("id", 1),
      await contacts().delete().eq("id", 1),
      await contacts().insert(goodRow()).select(),
    ]) {
      expect({ status: result.status, error: result.error }).toMatchObject({
        status: 401,
        error: { code: "42501", message: "permission denied for table contacts" },
      });
    }
    const after = await backend().db.query("select * from public.contacts order by id");
    expect(after.rows).toEqual(before.rows);
  });
});

describe("the gateway", () => {
  const noKey = {
    message: "No API key found in request",
    hint: "No `apikey` request header or url param was found.",
  };

  test.each([
    ["no apikey", { headers: { apikey: "" } }, 401, undefined, noKey],
    [
      "an Authorization bearer that is not the key",
      { headers: { Authorization: "Bearer other" } },
      401,
      "PGRST301",
      undefined,
    ],
    [
      "a path outside the APIs",
      { path: "/auth/v1/signup" },
      404,
      undefined,
      { message: "no Route matched with those values" },
    ],
  ])("%s: %i %s", async (_label, options, status, code, body) => {
    const sent = await expectRefused(json(goodRow()), options, { status, code });
    if (body) expect(sent.body).toEqual(body);
  });

  test("a body over 1 MiB is 413 with the gateway's message", async () => {
    const sent = await expectRefused(
      json(goodRow({ message: "m".repeat(1024 * 1024) })),
      {},
      { status: 413 },
    );
    expect(sent.body).toEqual({ message: "Request size limit exceeded" });
  });

  test("the anon key as ?apikey= alone (a CORS simple request, as the page's analytics beacon sends it)", async () => {
    const path = `/rest/v1/contacts?apikey=${encodeURIComponent(LOCAL_ANON_KEY)}`;
    expect((await send(json(goodRow()), { path, headers: { apikey: "" } })).status).toBe(201);
  });

  test("CORS: preflights for what supabase-js sends are allowed, and every answer carries the origin", async () => {
    const origin = "http://localhost:8000";
    const preflight = await fetch(`${backend().url}/rest/v1/contacts`, {
      method: "OPTIONS",
      headers: {
        Origin: origin,
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers":
          "apikey, authorization, content-type, x-form-proof, x-warm-up-a",
      },
    });
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get("access-control-allow-origin")).toBe(origin);
    expect(preflight.headers.get("access-control-allow-methods")).toContain("POST");
    expect(preflight.headers.get("access-control-allow-headers")?.split(/,\s*/)).toEqual(
      expect.arrayContaining([
        "apikey",
        "authorization",
        "content-type",
        "prefer",
        "x-client-info",
        "content-profile",
        "x-supabase-api-version",
        "x-form-proof",
        "x-warm-up-a",
      ]),
    );
    const stored = await send(json(goodRow()), { headers: { Origin: "http://127.0.0.1:9000" } });
    expect([stored.status, stored.headers.get("access-control-allow-origin")]).toEqual([
      201,
      "http://127.0.0.1:9000",
    ]);
    const refused = await send(undefined, { headers: { Origin: origin, apikey: "" } });
    expect([refused.status, refused.headers.get("access-control-allow-origin")]).toEqual([
      401,
      origin,
    ]);
  });

  test("the service-role key selects service_role; an anon key with its Bearer does not", async () => {
    const asService = { headers: { apikey: backend().serviceKey }, method: "GET" };
    expect((await send(undefined, asService)).body).toMatchObject({ code: "PGRST117" }); // the read was allowed
    const mixed = { headers: { Authorization: `Bearer ${backend().serviceKey}` } };
    expect((await send(json(goodRow()), mixed)).body).toMatchObject({ code: "PGRST301" });
  });

  test("/local-admin/contacts: the stored requests, for the service-role key only, without CORS", async () => {
    const listing = (apikey: string) =>
      send(undefined, { path: "/local-admin/contacts", method: "GET", headers: { apikey } });
    const refused = await listing(LOCAL_ANON_KEY);
    expect([refused.status, refused.headers.get("access-control-allow-origin")]).toEqual([
      403,
      null,
    ]);
    const listed = await listing(backend().serviceKey);
    expect(listed.status).toBe(200);
    expect(listed.body).toHaveLength(await countRows(backend().db));
  });

  test("/functions/v1/<name> is passed to the function's process and answered as it answers", async () => {
    const seen: string[] = [];
    const fn = http.createServer((req, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString()));
      req.on("end", () => {
        seen.push(`${req.method} ${req.url} ${req.headers["x-webhook-secret"]} ${body}`);
        res
          .writeHead(202, { "Content-Type": "application/json", "X-From-Function": "yes" })
          .end('{"ok":true}');
      });
    });
    await new Promise<void>((resolve) => fn.listen(0, "127.0.0.1", resolve));
    backend().functions.set("echo", `http://127.0.0.1:${(fn.address() as AddressInfo).port}`);
    try {
      const response = await fetch(`${backend().url}/functions/v1/echo/sub?x=1`, {
        method: "POST",
        headers: { "X-Webhook-Secret": "s" },
        body: "hello",
      });
      expect([
        response.status,
        response.headers.get("x-from-function"),
        await response.json(),
      ]).toEqual([202, "yes", { ok: true }]);
      expect(seen).toEqual(["POST /sub?x=1 s hello"]);
      const unknown = await fetch(`${backend().url}/functions/v1/nothing`, { method: "POST" });
      expect([unknown.status, await unknown.json()]).toEqual([
        404,
        { code: "NOT_FOUND", message: "Requested function was not found" },
      ]);
    } finally {
      backend().functions.delete("echo");
      fn.close();
    }
  });
});
