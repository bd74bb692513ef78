/**
 * The one listener: the gateway's refusals with its own messages; CORS; the service-role key;
 * `/local-admin/contacts`; `/functions/v1/<name>`; the client address the database sees; and a
 * burst of 500 requests from 50 concurrent clients, each stored once or refused with why.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

import { LOCAL_ANON_KEY } from "../build-time/local-backend-defaults";
import { countRows, goodRow, uniqueEmail } from "./test-support/helpers";
import { json, restTestBackend, type Sent, type SendOptions } from "./test-support/rest-client";

jest.setTimeout(90_000);

const { backend, send, expectRefused } = restTestBackend();

describe("the gateway", () => {
  const noKey = {
    message: "No API key found in request",
    hint: "No `apikey` request header or url param was found.",
  };

  test.each<[string, SendOptions & { body?: string }, number, string?, object?]>([
    ["no apikey", { headers: { apikey: "" } }, 401, undefined, noKey],
    [
      "a wrong apikey",
      { headers: { apikey: "not-the-anon-key" } },
      401,
      undefined,
      {
        message: "Invalid API key",
        hint: "Double check your Supabase `anon` or `service_role` API key.",
      },
    ],
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
    [
      "a body over 1 MiB",
      { body: json(goodRow({ message: "m".repeat(1024 * 1024) })) },
      413,
      undefined,
      { message: "Request size limit exceeded" },
    ],
  ])("%s: %i %s", async (_label, { body = json(goodRow()), ...options }, status, code, answer) => {
    const sent = await expectRefused(body, options, { status, code });
    if (answer) expect(sent.body).toEqual(answer);
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
    const allowed = preflight.headers.get("access-control-allow-headers")?.split(/,\s*/);
    const supabaseJs = "apikey authorization content-type prefer x-client-info content-profile";
    const wanted = `${supabaseJs} x-supabase-api-version x-form-proof x-warm-up-a`.split(" ");
    expect(allowed).toEqual(expect.arrayContaining(wanted));
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

/** A POST of a good row from the loopback address `from` (Node's localAddress): its screening's client key. */
async function clientKeyOf(from: string, headers: Record<string, string> = {}): Promise<string> {
  const row = goodRow();
  const status = await new Promise<number>((resolve, reject) => {
    const req = http.request(new URL("/rest/v1/contacts", backend().url), {
      method: "POST",
      localAddress: from,
      headers: { apikey: LOCAL_ANON_KEY, "Content-Type": "application/json", ...headers },
    });
    req.on("response", (res) => resolve(res.resume().statusCode ?? 0));
    req.on("error", reject).end(json(row));
  });
  expect(status).toBe(201);
  const key = await backend().db.query<{ client_key: string }>(
    "select s.client_key from public.contacts c join public.contact_screening s on s.contact_id = c.id where c.email = $1",
    [row.email],
  );
  return key.rows[0]!.client_key;
}

test("the client address is the connection's: X-Forwarded-For and CF-Connecting-IP buy no new identity", async () => {
  const spoofed = (i: number) => ({
    "X-Forwarded-For": `10.0.${i}.1`,
    "CF-Connecting-IP": `10.1.${i}.1`,
    "X-Real-IP": `10.2.${i}.1`,
  });
  const keys = [await clientKeyOf("127.0.0.2"), await clientKeyOf("127.0.0.2", spoofed(1))];
  keys.push(await clientKeyOf("127.0.0.2", spoofed(2)));
  expect(new Set(keys).size).toBe(1);
  expect(await clientKeyOf("127.0.0.3")).not.toBe(keys[0]);
});

test("a burst of 500 requests from 50 concurrent clients: each accepted one is stored exactly once, each refused one says why", async () => {
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
  await Promise.all(
    Array.from({ length: 50 }, async () => {
      while (next < plan.length) {
        const item = plan[next]!;
        next += 1;
        outcomes.set(
          item.marker,
          await send(json(goodRow({ email: item.email, message: item.marker }))),
        );
      }
    }),
  );

  const stored = await backend().db.query<{ message: string; n: number }>(
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
    expect(sent.body).toMatchObject({
      code: "PT429",
      message: "Too many meeting requests from this e-mail address",
    });
    expect(storedCount.has(marker)).toBe(false);
  }
  expect(stored.rows).toHaveLength(475);
  const perAddress = await backend().db.query<{ n: number }>(
    "select count(*)::int as n from public.contacts where email like $1 group by lower(email)",
    [`burst-${run}-%`],
  );
  expect(perAddress.rows.every((row) => row.n === 5)).toBe(true);
  // Still serving.
  expect((await send(json(goodRow({ email: uniqueEmail("after-burst") })))).status).toBe(201);
});
