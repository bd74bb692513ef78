/** Shared by the process-level tests: `npm run backend` in its own process group, and insert load. */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { LOCAL_ANON_KEY } from "../build-time/local-backend-defaults";
import { goodRow, LIFTED_SCREENING, pageProofOverHttp } from "./test-helpers";

export const PROJECT_ROOT = path.resolve(__dirname, "..");

export interface BackendProcess {
  child: ChildProcess;
  /** Everything printed so far (stdout and stderr). */
  output(): string;
  /** Resolves with the URL once the ready line is printed. */
  ready: Promise<string>;
  /** Resolves when npm has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function tempDataDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/**
 * The screening's budgets lifted, as SCREENING_* variables: the load below comes from one address
 * as fast as it can, which the budgets would (rightly) slow down and hold back.
 */
const LIFTED_SCREENING_ENV = Object.fromEntries(
  Object.entries(LIFTED_SCREENING).map(([column, value]) => [
    `SCREENING_${column.toUpperCase()}`,
    String(value),
  ]),
);

/** `npm run backend -- --port 0 --quiet --data-dir DIR`, as a new process group (like a terminal job). */
export function spawnBackend(
  dataDir: string,
  script = "backend",
  extra: string[] = [],
  env: NodeJS.ProcessEnv = {},
): BackendProcess {
  const child = spawn(
    "npm",
    ["run", "--silent", script, "--", "--port", "0", "--quiet", "--data-dir", dataDir, ...extra],
    {
      cwd: PROJECT_ROOT,
      env: { ...process.env, ...LIFTED_SCREENING_ENV, ...env },
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let text = "";
  child.stdout!.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
  child.stderr!.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  const ready = new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /^Local backend ready at (http:\/\/127\.0\.0\.1:\d+)$/m.exec(text);
      if (match) {
        clearInterval(timer);
        resolve(match[1]!);
      }
    }, 20);
    void exited.then(() => {
      clearInterval(timer);
      reject(new Error(`backend exited before it was ready:\n${text}`));
    });
  });
  return { child, output: () => text, ready, exited };
}

/** True while any process of the group is alive. */
function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function waitForGroupExit(pid: number, timeoutMs = 30_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (groupAlive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

export interface Load {
  /** E-mail addresses of inserts answered 201. */
  acknowledged: string[];
  /** Resolves at the first insert answered 201 (each insert first fetches and solves a page proof). */
  running: Promise<void>;
  stop(): Promise<void>;
}

/** `clients` loops inserting one request each, until stopped or the backend stops answering. */
export function insertLoad(url: string, clients: number, tag: string): Load {
  const acknowledged: string[] = [];
  let markRunning: () => void = () => {};
  const started = new Promise<void>((resolve) => (markRunning = resolve));
  let running = true;
  let sequence = 0;
  const loops = Array.from({ length: clients }, async () => {
    while (running) {
      sequence += 1;
      const row = goodRow({
        email: `${tag}.${sequence}@example.org`,
        message: `load ${tag} #${sequence}`,
      });
      try {
        // Sent as the page sends it (page-verified), so the screening's caps on direct requests do not apply.
        const proof = await pageProofOverHttp(url, LOCAL_ANON_KEY);
        const response = await fetch(`${url}/rest/v1/contacts`, {
          method: "POST",
          headers: {
            apikey: LOCAL_ANON_KEY,
            "Content-Type": "application/json",
            "x-form-proof": proof,
          },
          body: JSON.stringify(row),
        });
        await response.arrayBuffer();
        if (response.status === 201) {
          acknowledged.push(row.email);
          markRunning();
        }
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  });
  return {
    acknowledged,
    running: started,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}
