/**
 * An Edge Function locally: the deployed code under Deno on 127.0.0.1, as `supabase functions
 * serve` runs it, ending when the backend closes its stdin (so even after a SIGKILL); and the
 * calls to it, made as pg_net makes them (fire and forget, failures only logged and retried).
 */
import { spawn } from "node:child_process";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";

import { oneLine } from "../errors";
import { projectRoot } from "../paths";

export type FunctionCaller = ReturnType<typeof functionCaller>;

export const FUNCTION_NAME = "notify-meeting-request";

/** The Deno binary of the `deno` npm package's platform package (its own launcher runs the same). */
function denoExecutable(): string {
  const platform =
    os.platform() === "linux" ? `linux-${os.arch()}-glibc` : `${os.platform()}-${os.arch()}`;
  return path.join(path.dirname(require.resolve(`@deno/${platform}/package.json`)), "deno");
}

/** Starts the function `name` with exactly `env`, allowed to reach `allowNet` (hosts) and 127.0.0.1. */
export async function startFunctionProcess(
  env: Record<string, string>,
  allowNet: string[],
  log: (line: string) => void,
  name = FUNCTION_NAME,
) {
  const dir = path.join(projectRoot(), "supabase", "functions");
  const child = spawn(
    denoExecutable(),
    [
      "run",
      "--quiet",
      "--no-prompt",
      `--config=${path.join(dir, "deno.json")}`,
      "--allow-env",
      `--allow-net=${["127.0.0.1", ...allowNet].join(",")}`,
      path.join(dir, name, "index.ts"),
    ],
    {
      // Its own process group: a terminal's Ctrl-C signals the whole foreground group, and Deno
      // would die at once, with e-mails sent but not recorded. The backend stops it after its calls.
      detached: true,
      env: {
        ...env,
        SERVE_LOCALLY: "1",
        DENO_NO_UPDATE_CHECK: "1",
        NO_COLOR: "1",
        HOME: os.homedir(),
      },
    },
  );
  const exited = new Promise<void>((resolve) => {
    child.once("exit", () => resolve());
    child.once("error", () => resolve());
  });
  readline.createInterface({ input: child.stderr }).on("line", log);
  const port = await new Promise<number>((resolve, reject) => {
    readline.createInterface({ input: child.stdout }).on("line", (line) => {
      const listening = /listening on port (\d+)/.exec(line);
      if (listening) resolve(Number(listening[1]));
      else log(line);
    });
    child.once("error", reject);
    void exited.then(() => reject(new Error("the notification function exited at start")));
    const late = () => reject(new Error("the notification function did not start within 30 s"));
    setTimeout(late, 30_000).unref();
  }).catch(async (error: unknown) => {
    child.kill("SIGKILL");
    await exited;
    throw error;
  });
  return {
    url: `http://127.0.0.1:${port}`,
    /** Finishes the calls in flight (Deno.serve's shutdown), then ends the process. */
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.stdin.end();
      const timer = setTimeout(() => child.kill("SIGTERM"), 3_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Posts to the function with the shared secret; `what` names each call in log lines. */
export function functionCaller(url: string, secret: string, log: (line: string) => void) {
  const inflight = new Set<Promise<void>>();
  const stopping = new AbortController();
  return {
    post(body: string, what: string) {
      const call = fetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Webhook-Secret": secret },
        body,
        signal: AbortSignal.any([AbortSignal.timeout(120_000), stopping.signal]),
      }).then(
        async (response) => {
          const answer = await response.text();
          if (!response.ok)
            log(`notify: ${what} answered HTTP ${response.status} ${answer.slice(0, 200)}`);
        },
        (error: unknown) =>
          log(
            `notify: ${what} did not reach the function (${oneLine(error)}); the request stays pending and is retried`,
          ),
      );
      inflight.add(call);
      void call.finally(() => inflight.delete(call));
    },
    /** Resolves when every call made so far has finished. */
    async idle() {
      while (inflight.size > 0) await Promise.allSettled([...inflight]);
    },
    abort: () => stopping.abort(),
  };
}
