/** For the tests and benches that run `npm run backend` as a process and load it with inserts. */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { LOCAL_ANON_KEY } from "../../build-time/local-backend-defaults";
import { isAlive } from "../data-lock";
import { goodRow, LIFTED_SCREENING, pageProofOverHttp, postJson, waitUntil } from "./helpers";

export const PROJECT_ROOT = path.resolve(__dirname, "../..");

export type BackendProcess = ReturnType<typeof spawnBackend>;

export function tempDataDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** `npm run backend` on port 0 in `dataDir`, a process group as a terminal job, budgets lifted. */
export function spawnBackend(dataDir: string, env: NodeJS.ProcessEnv = {}) {
  const lifted = Object.entries(LIFTED_SCREENING).map(([column, value]) => [
    `SCREENING_${column.toUpperCase()}`,
    String(value),
  ]);
  const child = spawn(
    "npm",
    ["run", "--silent", "backend", "--", "--port", "0", "--quiet", "--data-dir", dataDir],
    {
      cwd: PROJECT_ROOT,
      env: { ...process.env, ...Object.fromEntries(lifted), ...env },
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let text = "";
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  /** Resolves with the URL once the ready line is printed. */
  const ready = new Promise<string>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      text += chunk.toString("utf8");
      const match = /^Local backend ready at (http:\/\/127\.0\.0\.1:\d+)$/m.exec(text);
      if (match) resolve(match[1]!);
    };
    child.stdout!.on("data", read);
    child.stderr!.on("data", read);
    void exited.then(() => reject(new Error(`backend exited before it was ready:\n${text}`)));
  });
  return { child, output: () => text, ready, exited };
}

/** Waits until no process of the group is left; false after `timeoutMs`. */
export function waitForGroupExit(pid: number, timeoutMs = 30_000): Promise<boolean> {
  const gone = () => !isAlive(-pid);
  return waitUntil(gone, timeoutMs).then(() => true, gone);
}

/**
 * `clients` loops inserting one request each, as the page sends them, until stopped: the e-mail
 * addresses answered 201, and `running`, which resolves at the first.
 */
export function insertLoad(url: string, clients: number, tag: string) {
  const acknowledged: string[] = [];
  let markRunning: () => void = () => {};
  const running = new Promise<void>((resolve) => (markRunning = resolve));
  let stopped = false;
  let sequence = 0;
  const loops = Array.from({ length: clients }, async () => {
    while (!stopped) {
      sequence += 1;
      const row = goodRow({
        email: `${tag}.${sequence}@example.org`,
        message: `load ${tag} #${sequence}`,
      });
      try {
        const proof = await pageProofOverHttp(url, LOCAL_ANON_KEY);
        if ((await postJson(url, row, { headers: { "x-form-proof": proof } })) !== 201) continue;
        acknowledged.push(row.email);
        markRunning();
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  });
  return {
    acknowledged,
    running,
    async stop() {
      stopped = true;
      await Promise.all(loops);
    },
  };
}
