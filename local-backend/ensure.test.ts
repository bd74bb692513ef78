/** ensureLocalBackend: start one unless the port is taken, never for a hosted URL. */
import net from "node:net";

import { ensureLocalBackend } from "./ensure";
import { tempDataDir } from "./test-support/processes";

jest.setTimeout(60_000);

test("a hosted URL starts nothing", async () => {
  expect(await ensureLocalBackend({ supabaseUrl: "https://abc.supabase.co" })).toEqual({
    kind: "remote",
    url: "https://abc.supabase.co",
  });
});

test("a free local port gets a backend on that port; a taken one is reported, not fatal", async () => {
  const env = { LOCAL_BACKEND_DATA_DIR: tempDataDir("ensure-backend-") };
  const blocker = net.createServer();
  await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
  const takenPort = (blocker.address() as net.AddressInfo).port;
  const supabaseUrl = `http://127.0.0.1:${takenPort}`;
  try {
    const taken = await ensureLocalBackend({ supabaseUrl, env });
    expect(taken).toMatchObject({ kind: "already-running", url: supabaseUrl });
    expect(taken.kind === "already-running" && taken.message).toMatch(
      /^Port \d+ is already in use/,
    );
  } finally {
    await new Promise((resolve) => blocker.close(resolve));
  }

  const started = await ensureLocalBackend({ supabaseUrl, env });
  try {
    expect(started.kind).toBe("started");
    expect(started.url).toBe(supabaseUrl);
    expect(started.kind === "started" && started.backend.dataDir).toBe(env.LOCAL_BACKEND_DATA_DIR);
  } finally {
    if (started.kind === "started") await started.backend.close();
  }
});
