/**
 * The local HTTP server as the site uses it: supabase-js `from('contacts').insert(row)`
 * with the anon key, against a server on a random port.
 */
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";

import { createClient, type SupabaseClient } from "@supabase/supabase-js";

import { CONTACT_COLUMN_LIMITS } from "../src/lib/field-limits";
import { LOCAL_ANON_KEY } from "../build-time/local-backend-defaults";
import { listMigrations } from "./database";
import { LocalBackendError } from "./errors";
import { defaultMigrationsDir } from "./paths";
import { loadRequests } from "./requests";
import { startLocalBackend } from "./server";
import {
  countRows,
  goodRow,
  LIFTED_SCREENING,
  openedForTests,
  rejection,
  uniqueEmail,
} from "./test-helpers";
import { tempDataDir } from "./test-processes";

jest.setTimeout(60_000);

function client(url: string, key = LOCAL_ANON_KEY): SupabaseClient {
  return createClient(url, key, { auth: { persistSession: false, autoRefreshToken: false } });
}

describe("supabase-js against the local backend", () => {
  // Hundreds of direct requests from one loopback address: the insert path, not the screening.
  const backend = openedForTests(() => startLocalBackend({ port: 0, screening: LIFTED_SCREENING }));
  let supabase: SupabaseClient;
  beforeAll(() => (supabase = client(backend().url)));

  test("listens on 127.0.0.1 and a random port", () => {
    expect(backend().url).toBe(`http://127.0.0.1:${backend().port}`);
    expect(backend().port).toBeGreaterThan(0);
    expect(backend().dataDir).toBeUndefined();
  });

  test("a good insert resolves with error null, status 201, and the row is stored", async () => {
    const row = goodRow();
    const result = await supabase.from("contacts").insert(row);
    expect(result.error).toBeNull();
    expect(result.status).toBe(201);
    expect(result.data).toBeNull();
    const stored = await backend().db.query(
      "select name, email, organization, message from public.contacts where email = $1",
      [row.email],
    );
    expect(stored.rows).toEqual([row]);
  });

  test("a wrong API key is refused by the gateway (401 Invalid API key)", async () => {
    const before = await countRows(backend().db);
    const result = await client(backend().url, "not-the-anon-key")
      .from("contacts")
      .insert(goodRow());
    expect(result.status).toBe(401);
    expect(result.error).toMatchObject({ message: "Invalid API key" });
    expect(await countRows(backend().db)).toBe(before);
  });

  test.each([
    [
      "an oversize field is refused with 400 / 23514",
      "contacts",
      { name: "x".repeat(CONTACT_COLUMN_LIMITS.name + 1) },
      400,
      {
        code: "23514",
        message: 'new row for relation "contacts" violates check constraint "contacts_name_length"',
      },
    ],
    [
      "an unknown column is refused with 400 / PGRST204",
      "contacts",
      { phone: "555-0100" },
      400,
      {
        code: "PGRST204",
        message: "Could not find the 'phone' column of 'contacts' in the schema cache",
      },
    ],
    [
      "an unknown table is 404 / PGRST205",
      "contact",
      {},
      404,
      {
        code: "PGRST205",
        message: "Could not find the table 'public.contact' in the schema cache",
      },
    ],
  ])("%s", async (_title, table, extra, status, error) => {
    const result = await supabase.from(table).insert({ ...goodRow(), ...extra });
    expect(result.status).toBe(status);
    expect(result.error).toMatchObject(error);
  });

  test("an array insert (sent with ?columns=) of two rows is refused with 400 / PT400", async () => {
    const before = await countRows(backend().db);
    const result = await supabase.from("contacts").insert([goodRow(), goodRow()]);
    expect(result.status).toBe(400);
    expect(result.error).toMatchObject({
      code: "PT400",
      message: "Only one meeting request can be submitted at a time",
    });
    expect(await countRows(backend().db)).toBe(before);
    // An array of one is fine.
    expect((await supabase.from("contacts").insert([goodRow()])).status).toBe(201);
  });

  test("the 6th request from one address within the hour gets 429 / PT429", async () => {
    const email = uniqueEmail("six");
    for (let i = 0; i < 5; i += 1)
      expect((await supabase.from("contacts").insert(goodRow({ email }))).error).toBeNull();
    const sixth = await supabase.from("contacts").insert(goodRow({ email }));
    expect(sixth.status).toBe(429);
    expect(sixth.error).toMatchObject({
      code: "PT429",
      message: "Too many meeting requests from this e-mail address",
    });
  });

  test("reading, updating and deleting are refused as PostgREST refuses them for anon (401 / 42501)", async () => {
    const before = await backend().db.query("select * from public.contacts order by id");
    const read = await supabase.from("contacts").select("*");
    const update = await supabase.from("contacts").update({ name: "x" }).eq("id", 1);
    const remove = await supabase.from("contacts").delete().eq("id", 1);
    const insertAndRead = await supabase.from("contacts").insert(goodRow()).select();
    for (const result of [read, update, remove, insertAndRead]) {
      expect(result.status).toBe(401);
      expect(result.error).toMatchObject({
        code: "42501",
        message: "permission denied for table contacts",
      });
    }
    expect((await backend().db.query("select * from public.contacts order by id")).rows).toEqual(
      before.rows,
    );
  });

  test("200 concurrent inserts are all stored, none lost", async () => {
    const rows = Array.from({ length: 200 }, (_, i) =>
      goodRow({ email: uniqueEmail(`burst${i}`), message: `concurrent #${i}` }),
    );
    const results = await Promise.all(rows.map((row) => supabase.from("contacts").insert(row)));
    expect(results.filter((result) => result.error !== null)).toEqual([]);
    const stored = await backend().db.query<{ email: string }>(
      "select email from public.contacts where message like 'concurrent #%'",
    );
    expect(stored.rows.map((row) => row.email).sort()).toEqual(rows.map((row) => row.email).sort());
  });

  test("CORS: a preflight from the site's origin is allowed, and responses carry the header", async () => {
    const origin = "http://localhost:8000";
    const preflight = await fetch(`${backend().url}/rest/v1/contacts`, {
      method: "OPTIONS",
      headers: {
        Origin: origin,
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers":
          "apikey, authorization, content-type, prefer, x-client-info, content-profile, x-supabase-api-version",
      },
    });
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get("access-control-allow-origin")).toBe(origin);
    expect(preflight.headers.get("access-control-allow-methods")).toContain("POST");
    expect((preflight.headers.get("access-control-allow-headers") ?? "").split(/,\s*/)).toEqual(
      expect.arrayContaining([
        "apikey",
        "authorization",
        "content-type",
        "prefer",
        "x-client-info",
        "accept-profile",
        "content-profile",
        "x-supabase-api-version",
      ]),
    );
    const post = await fetch(`${backend().url}/rest/v1/contacts`, {
      method: "POST",
      headers: {
        Origin: "http://127.0.0.1:9000",
        apikey: LOCAL_ANON_KEY,
        "Content-Type": "application/json",
      },
      body: JSON.stringify(goodRow()),
    });
    expect(post.status).toBe(201);
    expect(post.headers.get("access-control-allow-origin")).toBe("http://127.0.0.1:9000");
    const refused = await fetch(`${backend().url}/rest/v1/contacts`, {
      method: "POST",
      headers: { Origin: origin },
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("access-control-allow-origin")).toBe(origin);
  });

  test("the admin listing is loopback-only and needs the per-run token", async () => {
    expect((await fetch(`${backend().url}/local-admin/health`)).status).toBe(200);
    const response = await fetch(`${backend().url}/local-admin/contacts`, {
      headers: { Authorization: `Bearer ${LOCAL_ANON_KEY}` },
    });
    expect(response.status).toBe(401);
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("lifecycle", () => {
  test("data survives a restart with a file-backed folder; migrations are not re-applied", async () => {
    const dataDir = tempDataDir("local-backend-test-");
    const logs: string[] = [];
    const first = await startLocalBackend({ port: 0, dataDir, log: (line) => logs.push(line) });
    const row = goodRow({ message: "kept across restarts" });
    expect((await client(first.url).from("contacts").insert(row)).error).toBeNull();
    await first.close();
    expect(fs.existsSync(path.join(dataDir, "server.lock"))).toBe(false);
    expect(logs.filter((line) => line.startsWith("Applied migration"))).toHaveLength(
      listMigrations(defaultMigrationsDir()).length,
    );

    const again: string[] = [];
    const second = await startLocalBackend({ port: 0, dataDir, log: (line) => again.push(line) });
    try {
      expect(again.filter((line) => line.startsWith("Applied migration"))).toEqual([]);
      const stored = await second.db.query(
        "select name, email, organization, message from public.contacts",
      );
      expect(stored.rows).toEqual([row]);
      // `npm run requests` reads through the running server…
      const viaServer = await loadRequests(dataDir);
      expect(viaServer.source).toBe("server");
      expect(viaServer.requests).toMatchObject([row]);
      // …and a second backend on the same folder is refused.
      const error = await rejection(startLocalBackend({ port: 0, dataDir }));
      expect(error).toBeInstanceOf(LocalBackendError);
      expect(error.message).toMatch(
        /^The data folder .* is in use by a running local backend \(pid \d+, http:\/\/127\.0\.0\.1:\d+\)/,
      );
    } finally {
      await second.close();
    }
    // With no server running, the folder is opened directly.
    const viaFiles = await loadRequests(dataDir);
    expect(viaFiles.source).toBe("files");
    expect(viaFiles.requests).toMatchObject([row]);
  });

  test("close() finishes requests in flight: they are answered 201 and stored", async () => {
    const dataDir = tempDataDir("local-backend-test-");
    const backend = await startLocalBackend({ port: 0, dataDir });
    const bodies = Array.from({ length: 10 }, () => Buffer.from(JSON.stringify(goodRow()), "utf8"));
    const requests = bodies.map((body) => {
      const request = http.request(`${backend.url}/rest/v1/contacts`, {
        method: "POST",
        headers: {
          apikey: LOCAL_ANON_KEY,
          "Content-Type": "application/json",
          "Content-Length": body.length,
        },
      });
      const status = new Promise<number>((resolve, reject) => {
        request.on("response", (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        });
        request.on("error", reject);
      });
      request.write(body.subarray(0, 10));
      return { request, body, status };
    });
    // Every request has arrived with half a body; now stop the server and finish sending.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const closing = backend.close();
    for (const { request, body } of requests) request.end(body.subarray(10));
    const statuses = await Promise.all(requests.map(({ status }) => status));
    await closing;
    expect(statuses).toEqual(bodies.map(() => 201));
    const reopened = await loadRequests(dataDir);
    expect(reopened.requests).toHaveLength(bodies.length);
  });

  test("a port in use gives one clear line", async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const error = await rejection(startLocalBackend({ port }));
      expect(error).toBeInstanceOf(LocalBackendError);
      expect(error.message).toBe(
        `Port ${port} is already in use — is the local backend already running? Stop it or set LOCAL_BACKEND_PORT.`,
      );
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  test("a data folder that is not a usable folder gives one clear line", async () => {
    const file = path.join(tempDataDir("local-backend-test-"), "not-a-folder");
    fs.writeFileSync(file, "x");
    const error = await rejection(startLocalBackend({ port: 0, dataDir: file }));
    expect(error).toBeInstanceOf(LocalBackendError);
    expect(error.message).toMatch(
      /^Cannot use the data folder .*not-a-folder \((EEXIST|ENOTDIR)\): it must be a folder this user can read and write\./,
    );
  });

  test("a failing migration stops the start with the file name and SQL error", async () => {
    const migrationsDir = tempDataDir("local-backend-test-");
    fs.writeFileSync(
      path.join(migrationsDir, "20250101000000_typo.sql"),
      "create tabel oops (id int);\n",
    );
    const error = await rejection(startLocalBackend({ port: 0, migrationsDir }));
    expect(error).toBeInstanceOf(LocalBackendError);
    expect(error.message).toBe(
      'Migration 20250101000000_typo.sql failed (line 1): syntax error at or near "tabel"',
    );
  });
});
