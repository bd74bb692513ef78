/**
 * The two commands as child processes: `npm run backend` (cli.ts) and `npm run requests`
 * (requests-cli.ts).
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

import { LOCAL_ANON_KEY } from "../build-time/local-backend-defaults";
import { parseCliArgs } from "./cli-args";
import { goodRow } from "./test-support/helpers";

jest.setTimeout(90_000);

const root = path.resolve(__dirname, "..");
const tsx = path.join(root, "node_modules", ".bin", "tsx");

function run(
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): ChildProcessWithoutNullStreams {
  return spawn(tsx, [path.join(root, "local-backend", script), ...args], {
    cwd: root,
    env: { ...process.env, ...env },
  });
}

function runSync(
  script: string,
  args: string[],
): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(tsx, [path.join(root, "local-backend", script), ...args], {
    cwd: root,
    encoding: "utf8",
  });
}

/** Resolves with the backend's URL once it prints the ready line. */
function waitForReady(child: ChildProcessWithoutNullStreams): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = "";
    const onData = (chunk: Buffer): void => {
      output += chunk.toString("utf8");
      const match = /^Local backend ready at (http:\/\/127\.0\.0\.1:\d+)$/m.exec(output);
      if (match) resolve(match[1]!);
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
    });
    child.on("exit", (code) =>
      reject(new Error(`backend exited with ${code} before it was ready:\n${output}`)),
    );
  });
}

function exited(
  child: ChildProcessWithoutNullStreams,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  return new Promise((resolve) => child.on("exit", (code) => resolve({ code, stdout, stderr })));
}

const withoutNpmNoise = (text: string): string =>
  text
    .split("\n")
    .filter((line) => line && !line.startsWith("npm warn"))
    .join("\n");

describe("npm run backend (cli.ts)", () => {
  test("starts, prints the ready line, serves, lists through `requests`, and stops cleanly on SIGTERM", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cli-backend-"));
    const child = run("cli.ts", ["--port", "0", "--data-dir", dataDir]);
    const done = exited(child);
    const url = await waitForReady(child);
    const row = goodRow({ message: "from the CLI test\nsecond line" });
    const response = await fetch(`${url}/rest/v1/contacts`, {
      method: "POST",
      headers: {
        apikey: LOCAL_ANON_KEY,
        Authorization: `Bearer ${LOCAL_ANON_KEY}`,
        "Content-Type": "application/json",
      },
      body: JSON.stringify(row),
    });
    expect(response.status).toBe(201);

    // `npm run requests` while the server is running: read through its admin endpoint.
    const listed = runSync("requests-cli.ts", ["--json", "--data-dir", dataDir]);
    expect(listed.status).toBe(0);
    expect(JSON.parse(listed.stdout)).toMatchObject([row]);

    child.kill("SIGTERM");
    const { code, stdout } = await done;
    expect(code).toBe(0);
    expect(stdout).toContain(`anon key:    ${LOCAL_ANON_KEY}`);
    expect(stdout).toContain(`data folder: ${dataDir}`);
    expect(stdout).toContain("Local backend stopped.");

    // …and when it is not running: open the folder directly.
    const text = runSync("requests-cli.ts", ["--data-dir", dataDir]);
    expect(text.status).toBe(0);
    expect(text.stdout).toContain(`  Name:          ${row.name}`);
    expect(text.stdout).toContain("    from the CLI test\n    second line");
    const csv = runSync("requests-cli.ts", ["--csv", "--data-dir", dataDir]);
    expect(csv.stdout.startsWith("id,created_at,name,email,organization,message\r\n")).toBe(true);
    expect(csv.stdout).toContain('"from the CLI test\nsecond line"');
  });

  test("a port in use: exit status 1 and one clear line, no stack trace", async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const { code, stderr } = await exited(
        run("cli.ts", ["--in-memory"], { LOCAL_BACKEND_PORT: String(port) }),
      );
      expect(code).toBe(1);
      expect(withoutNpmNoise(stderr)).toBe(
        `Port ${port} is already in use — is the local backend already running? Stop it or set LOCAL_BACKEND_PORT.`,
      );
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  test("bad arguments: exit status 2 with the usage", () => {
    const result = runSync("cli.ts", ["--port", "http"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--port must be a port number (0-65535), not "http".');
  });

  test("argument and environment parsing", () => {
    expect(parseCliArgs(["--port=0", "--in-memory"], {})).toEqual({
      port: 0,
      dataDir: undefined,
      quiet: false,
    });
    expect(
      parseCliArgs([], { LOCAL_BACKEND_PORT: "6000", LOCAL_BACKEND_DATA_DIR: "/tmp/x" }),
    ).toEqual({ port: 6000, dataDir: "/tmp/x", quiet: false });
    expect(parseCliArgs(["--data-dir", "d", "--quiet"], { LOCAL_BACKEND_PORT: "6000" }).port).toBe(
      6000,
    );
    expect(() => parseCliArgs(["--frobnicate"], {})).toThrow("Unknown option --frobnicate.");
    expect(() => parseCliArgs(["--port"], {})).toThrow("--port needs a value.");
    expect(() => parseCliArgs(["--quiet=yes"], {})).toThrow("--quiet does not take a value.");
    expect(() => parseCliArgs(["stray"], {})).toThrow("Unexpected argument stray.");
    expect(() => parseCliArgs(["--in-memory", "--data-dir", "d"], {})).toThrow(
      "--data-dir and --in-memory cannot be used together.",
    );
    expect(() => parseCliArgs([], { LOCAL_BACKEND_PORT: "x" })).toThrow(
      'LOCAL_BACKEND_PORT must be a port number (0-65535), not "x".',
    );
  });
});

describe("npm run requests (requests-cli.ts)", () => {
  test("with no database yet it says so and lists nothing", () => {
    const dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "cli-none-")), "absent");
    const text = runSync("requests-cli.ts", ["--data-dir", dataDir]);
    expect(text.status).toBe(0);
    expect(text.stdout).toBe("No meeting requests yet.\n");
    expect(text.stderr).toContain("No local database in");
    expect(runSync("requests-cli.ts", ["--json", "--data-dir", dataDir]).stdout).toBe("[]\n");
  });
});
