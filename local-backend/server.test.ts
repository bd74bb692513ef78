/**
 * The local backend's life cycle: data kept across restarts (migrations applied once), one
 * backend per data folder, requests in flight finished by close(), and a start that fails in one
 * clear line (a failing migration's line: supabase/tests/migrations.test.ts).
 */
import fs from "node:fs";
import http from "node:http";
import path from "node:path";

import { LOCAL_ANON_KEY } from "../build-time/local-backend-defaults";
import { listMigrations } from "./database";
import { LocalBackendError } from "./errors";
import { defaultMigrationsDir } from "./paths";
import { loadRequests } from "./requests";
import { startLocalBackend } from "./server";
import { goodRow, postJson, rejection } from "./test-support/helpers";
import { tempDataDir } from "./test-support/processes";

jest.setTimeout(60_000);

test("data survives a restart, migrations are applied once, and a folder serves one backend", async () => {
  const dataDir = tempDataDir("local-backend-test-");
  const logs: string[] = [];
  const first = await startLocalBackend({ port: 0, dataDir, log: (line) => logs.push(line) });
  expect(first.url).toBe(`http://127.0.0.1:${first.port}`);
  const row = goodRow({ message: "kept across restarts" });
  expect(await postJson(first.url, row)).toBe(201);
  await first.close();
  expect(fs.readdirSync(dataDir).filter((name) => name.startsWith("server."))).toEqual([]);
  const applied = (lines: string[]) => lines.filter((line) => line.startsWith("Applied migration"));
  expect(applied(logs)).toHaveLength(listMigrations(defaultMigrationsDir()).length);

  const again: string[] = [];
  const second = await startLocalBackend({ port: 0, dataDir, log: (line) => again.push(line) });
  try {
    expect(applied(again)).toEqual([]);
    const stored = await second.db.query(
      "select name, email, organization, message from public.contacts",
    );
    expect(stored.rows).toEqual([row]);
    // `npm run requests` reads through the running backend…
    expect(await loadRequests(dataDir)).toMatchObject({ source: "server", requests: [row] });
    // …whose URL and key it found in server.json, readable by this user only.
    expect(fs.statSync(path.join(dataDir, "server.json")).mode & 0o777).toBe(0o600);
    const error = await rejection(startLocalBackend({ port: 0, dataDir }));
    expect(error).toBeInstanceOf(LocalBackendError);
    expect(error.message).toMatch(
      /^The data folder .* is in use by a running local backend \(pid \d+, http:\/\/127\.0\.0\.1:\d+\)/,
    );
  } finally {
    await second.close();
  }
  // With no backend running, the folder is opened directly.
  expect(await loadRequests(dataDir)).toMatchObject({ source: "files", requests: [row] });
});

test("close() finishes requests in flight: they are answered 201 and stored", async () => {
  const dataDir = tempDataDir("local-backend-test-");
  const backend = await startLocalBackend({ port: 0, dataDir });
  const bodies = Array.from({ length: 10 }, () => Buffer.from(JSON.stringify(goodRow())));
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
      request.on("response", (response) => resolve(response.resume().statusCode ?? 0));
      request.on("error", reject);
    });
    request.write(body.subarray(0, 10));
    return { request, body, status };
  });
  // Every request has arrived with part of its body; now stop the backend and send the rest.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const closing = backend.close();
  for (const { request, body } of requests) request.end(body.subarray(10));
  expect(await Promise.all(requests.map(({ status }) => status))).toEqual(bodies.map(() => 201));
  await closing;
  expect((await loadRequests(dataDir)).requests).toHaveLength(bodies.length);
});

test("a data folder that is a file stops the start with one clear line", async () => {
  const file = path.join(tempDataDir("local-backend-test-"), "not-a-folder");
  fs.writeFileSync(file, "x");
  const error = await rejection(startLocalBackend({ port: 0, dataDir: file }));
  expect(error).toBeInstanceOf(LocalBackendError);
  expect(error.message).toMatch(
    /^Cannot use the data folder .*not-a-folder \((EEXIST|ENOTDIR)\): it must be a folder this user can read and write\./,
  );
});
