/**
 * `npm run backend` and `npm run requests` as processes: exit statuses, one-line failures, stops
 * under load (Ctrl-C to the group, SIGTERM to npm alone, Ctrl-C while staff e-mails are in flight)
 * that close cleanly, every 201 kept; and SIGKILL under load, losing nothing acknowledged.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";

import { SMTPServer } from "smtp-server";

import { LOCAL_ANON_KEY } from "../build-time/local-backend-defaults";
import { parseCliArgs } from "./cli-args";
import { readJournal } from "./journal";
import { goodRow, postJson, waitUntil } from "./test-support/helpers";
import { loadRequests } from "./requests";
import {
  insertLoad,
  PROJECT_ROOT,
  spawnBackend,
  tempDataDir,
  waitForGroupExit,
  type BackendProcess,
} from "./test-support/processes";

jest.setTimeout(120_000);

const run = (script: string, args: string[], env: NodeJS.ProcessEnv = {}) =>
  spawnSync(
    path.join(PROJECT_ROOT, "node_modules", ".bin", "tsx"),
    [path.join(PROJECT_ROOT, "local-backend", script), ...args],
    { cwd: PROJECT_ROOT, encoding: "utf8", env: { ...process.env, ...env } },
  );

async function expectCleanStop(backend: BackendProcess, dataDir: string, acknowledged: string[]) {
  expect(await waitForGroupExit(backend.child.pid!)).toBe(true);
  expect(backend.output()).toContain("Local backend stopped.");
  expect(backend.output()).not.toContain("exiting without waiting");
  expect(fs.existsSync(path.join(dataDir, "server.lock"))).toBe(false);
  const stored = new Set((await loadRequests(dataDir)).requests.map((request) => request.email));
  expect(acknowledged.filter((email) => !stored.has(email))).toEqual([]);
}

test("npm run backend: ready lines; SIGTERM to npm alone under load stops it cleanly; then `requests` reads the files", async () => {
  const dataDir = tempDataDir("cli-backend-");
  const backend = spawnBackend(dataDir);
  const url = await backend.ready;
  const row = goodRow({ message: "from the CLI test\nsecond line" });
  expect(await postJson(url, row)).toBe(201);

  const load = insertLoad(url, 5, "npmterm");
  await load.running;
  await new Promise((resolve) => setTimeout(resolve, 300));
  process.kill(backend.child.pid!, "SIGTERM"); // npm alone: it exits at once, its script must follow
  await load.stop();
  await expectCleanStop(backend, dataDir, [row.email, ...load.acknowledged]);
  for (const line of [`anon key:    ${LOCAL_ANON_KEY}`, `data folder: ${dataDir}`])
    expect(backend.output()).toContain(line);

  // Through the running backend: server.test.ts. The layout: requests.test.ts.
  const text = run("requests-cli.ts", ["--data-dir", dataDir]);
  expect(text.status).toBe(0);
  expect(text.stdout).toContain(`  Name:          ${row.name}`);
  const csv = run("requests-cli.ts", ["--csv", "--data-dir", dataDir]).stdout;
  expect(csv).toMatch(/^id,created_at,name,email,organization,message\r\n/);
});

test("one Ctrl-C under load (SIGINT to the process group) closes cleanly, twice in a row", async () => {
  const dataDir = tempDataDir("stop-sigint-");
  for (let cycle = 0; cycle < 2; cycle += 1) {
    const backend = spawnBackend(dataDir);
    const load = insertLoad(await backend.ready, 20, `sigint${cycle}`);
    await load.running;
    await new Promise((resolve) => setTimeout(resolve, 400 + cycle * 150));
    process.kill(-backend.child.pid!, "SIGINT");
    await expectCleanStop(backend, dataDir, load.acknowledged);
    await load.stop();
    expect(load.acknowledged.length).toBeGreaterThan(0);
  }
});

test("npm run backend on a port in use: exit status 1 and one line; bad arguments: 2 and the usage", async () => {
  const blocker = net.createServer();
  await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
  const port = (blocker.address() as net.AddressInfo).port;
  try {
    const taken = run("cli.ts", ["--in-memory"], { LOCAL_BACKEND_PORT: String(port) });
    expect({ status: taken.status, stderr: taken.stderr.trim() }).toEqual({
      status: 1,
      stderr: `Port ${port} is already in use — is the local backend already running? Stop it or set LOCAL_BACKEND_PORT.`,
    });
  } finally {
    blocker.close();
  }
  const bad = run("cli.ts", ["--port", "http"]);
  expect(bad.status).toBe(2);
  expect(bad.stderr).toContain('--port must be a port number (0-65535), not "http".\nUsage:');
});

test("npm run requests with no database yet says so and lists nothing", () => {
  const dataDir = path.join(tempDataDir("cli-none-"), "absent");
  const text = run("requests-cli.ts", ["--data-dir", dataDir]);
  expect({ status: text.status, stdout: text.stdout }).toEqual({
    status: 0,
    stdout: "No meeting requests yet.\n",
  });
  expect(text.stderr).toContain("No local database in");
  expect(run("requests-cli.ts", ["--json", "--data-dir", dataDir]).stdout).toBe("[]\n");
});

test.each<[string[], NodeJS.ProcessEnv, string | object]>([
  [["--port=0", "--in-memory"], {}, { port: 0, dataDir: undefined, quiet: false }],
  [
    [],
    { LOCAL_BACKEND_PORT: "6000", LOCAL_BACKEND_DATA_DIR: "/tmp/x" },
    { port: 6000, dataDir: "/tmp/x", quiet: false },
  ],
  [
    ["--data-dir", "d", "--quiet"],
    { LOCAL_BACKEND_PORT: "6000" },
    { port: 6000, dataDir: "d", quiet: true },
  ],
  [["--frobnicate"], {}, "Unknown option '--frobnicate'."],
  [["--port"], {}, "Option '--port <value>' argument missing."],
  [["--quiet=yes"], {}, "Option '--quiet' does not take an argument."],
  [["stray"], {}, "Unexpected argument 'stray'. This command does not take positional arguments."],
  [["--in-memory", "--data-dir", "d"], {}, "--data-dir and --in-memory cannot be used together."],
  [[], { LOCAL_BACKEND_PORT: "x" }, 'LOCAL_BACKEND_PORT must be a port number (0-65535), not "x".'],
])("npm run backend -- %j with %j", (args, env, expected) => {
  if (typeof expected === "string") expect(() => parseCliArgs(args, env)).toThrow(expected);
  else expect(parseCliArgs(args, env)).toEqual(expected);
});

test("SIGKILL under load loses and duplicates nothing that was acknowledged", async () => {
  const dataDir = tempDataDir("crash-");
  const first = spawnBackend(dataDir);
  const load = insertLoad(await first.ready, 20, "crash");
  while (load.acknowledged.length < 60) await new Promise((resolve) => setTimeout(resolve, 5));
  process.kill(-first.child.pid!, "SIGKILL");
  expect(await waitForGroupExit(first.child.pid!)).toBe(true);
  await load.stop();

  const second = spawnBackend(dataDir);
  await second.ready;
  try {
    const stored = (await loadRequests(dataDir)).requests.map((request) => request.email);
    expect(new Set(stored).size).toBe(stored.length);
    const storedSet = new Set(stored);
    expect(load.acknowledged.filter((email) => !storedSet.has(email))).toEqual([]);
    const journaled = [...readJournal(dataDir).values()].map((request) => request.email).sort();
    expect(journaled).toEqual([...stored].sort());
  } finally {
    process.kill(-second.child.pid!, "SIGINT");
    await waitForGroupExit(second.child.pid!);
  }
});

/** An SMTP server that keeps each message it receives, then takes 1.5 s to say so. */
async function startSlowSmtpServer() {
  const received: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      let raw = "";
      stream.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
      stream.on("end", () => {
        received.push(/^Message-ID: *(.+)$/im.exec(raw)?.[1]?.trim() ?? raw.slice(0, 40));
        setTimeout(() => callback(), 1_500);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const close = () => {
    for (const connection of server.connections) connection.close();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return { port: (server.server.address() as net.AddressInfo).port, received, close };
}

test("one Ctrl-C while e-mails are in flight: each e-mail staff received is recorded as delivered, none is left to be sent again", async () => {
  const smtp = await startSlowSmtpServer();
  const dataDir = tempDataDir("stop-delivery-");
  const backend = spawnBackend(dataDir, {
    SMTP_HOST: "127.0.0.1",
    SMTP_PORT: String(smtp.port),
    LOCAL_NOTIFICATIONS: "on",
  });
  try {
    // Sent as the page sends them (page-verified): notified one by one.
    const load = insertLoad(await backend.ready, 1, "stop-during-delivery");
    await waitUntil(() => load.acknowledged.length >= 3);
    await load.stop();
    const sent = load.acknowledged.length;
    // Every message is on the SMTP server, whose answers are still on their way.
    await waitUntil(() => smtp.received.length === sent);

    process.kill(-backend.child.pid!, "SIGINT");
    expect(await waitForGroupExit(backend.child.pid!)).toBe(true);
    expect(backend.output()).toContain("Local backend stopped.");

    const { requests } = await loadRequests(dataDir);
    const statuses = requests.map((request) => request.status?.notification);
    expect(statuses).toEqual(Array(sent).fill("delivered"));
    expect(new Set(smtp.received).size).toBe(sent);
  } finally {
    await smtp.close();
    if (!(await waitForGroupExit(backend.child.pid!, 0)))
      process.kill(-backend.child.pid!, "SIGKILL");
  }
});
