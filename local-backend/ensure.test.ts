/** ensureLocalBackend: start one unless the port is taken, never for a hosted URL. */
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

import { ensureLocalBackend } from "./ensure";

jest.setTimeout(60_000);

test("a hosted URL starts nothing", async () => {
  expect(await ensureLocalBackend({ supabaseUrl: "https://abc.supabase.co" })).toEqual({
    kind: "remote",
    url: "https://abc.supabase.co",
  });
});

test("in memory when asked (audits, tests)", async () => {
  const ensured = await ensureLocalBackend({
    supabaseUrl: "http://127.0.0.1:0",
    inMemory: true,
    env: { LOCAL_BACKEND_DATA_DIR: "/nonexistent" },
  });
  try {
    expect(ensured.kind === "started" && ensured.backend.dataDir).toBeUndefined();
  } finally {
    if (ensured.kind === "started") await ensured.backend.close();
  }
});

test("a free local port gets a backend on that port; a taken one is reported, not fatal", async () => {
  const blocker = net.createServer();
  await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
  const takenPort = (blocker.address() as net.AddressInfo).port;
  try {
    const taken = await ensureLocalBackend({
      supabaseUrl: `http://127.0.0.1:${takenPort}`,
      inMemory: true,
    });
    expect(taken).toMatchObject({ kind: "already-running", url: `http://127.0.0.1:${takenPort}` });
    expect(taken.kind === "already-running" && taken.message).toMatch(
      /^Port \d+ is already in use/,
    );
  } finally {
    await new Promise((resolve) => blocker.close(resolve));
  }

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ensure-backend-"));
  const started = await ensureLocalBackend({
    supabaseUrl: `http://127.0.0.1:${takenPort}`,
    env: { LOCAL_BACKEND_DATA_DIR: dataDir },
  });
  try {
    expect(started.kind).toBe("started");
    expect(started.url).toBe(`http://127.0.0.1:${takenPort}`);
    expect(started.kind === "started" && started.backend.dataDir).toBe(dataDir);
  } finally {
    if (started.kind === "started") await started.backend.close();
  }
});
