/**
 * Runs supabase/functions/notify-meeting-request under Deno, as `supabase functions serve`
 * would: the deployed code itself, not a Node copy of it. It listens on 127.0.0.1 and ends
 * when this process closes its stdin, so it never outlives the backend (even after a SIGKILL),
 * and finishes the calls in flight first (Deno.serve's shutdown).
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";

import { projectRoot } from "./project-root";

export interface FunctionProcess {
  url: string;
  /** Stops the function (closes its stdin, then SIGTERM if it lingers). */
  close(): Promise<void>;
  /** Resolves when the process ends, for whatever reason. */
  exited: Promise<number | null>;
}

/** The Deno binary the `deno` npm package installed (npm skips its install script, so find it ourselves). */
export function denoExecutable(): string {
  const fromEnvironment = process.env.DENO_BINARY;
  if (fromEnvironment) return fromEnvironment;
  const exe = os.platform() === "win32" ? "deno.exe" : "deno";
  const root = projectRoot();
  const platform =
    os.platform() === "linux" ? `linux-${os.arch()}-glibc` : `${os.platform()}-${os.arch()}`;
  const candidates = [
    path.join(root, "node_modules", "deno", exe),
    path.join(root, "node_modules", "@deno", platform, exe),
  ];
  const found = candidates.find((candidate) => fs.existsSync(candidate));
  if (!found)
    throw new Error(
      `Deno is not installed (looked for ${candidates.join(" and ")}); run npm install`,
    );
  return found;
}

export function functionDir(): string {
  return path.join(projectRoot(), "supabase", "functions", "notify-meeting-request");
}

/** Every variable the function reads (supabase/functions/notify-meeting-request/config.ts, serve-locally.ts). */
export const FUNCTION_VARIABLES = [
  "NOTIFY_WEBHOOK_SECRET",
  "NOTIFY_EMAIL_TO",
  "NOTIFY_REPORT_TO",
  "NOTIFY_EMAIL_FROM",
  "SMTP_HOST",
  "SMTP_PORT",
  "SMTP_USER",
  "SMTP_PASSWORD",
  "NOTIFY_CHAT_WEBHOOK_URL",
  "NOTIFY_DIGEST_MIN_INTERVAL_SECONDS",
  "NOTIFY_TIME_ZONE",
  "NOTIFY_RETRY_BASE_SECONDS",
  "NOTIFY_RETRY_MAX_SECONDS",
  "SUPABASE_URL",
  "SUPABASE_SERVICE_ROLE_KEY",
  "NOTIFY_FUNCTION_PORT",
] as const;

export interface StartFunctionOptions {
  /** Only these variables reach the function. */
  env: Record<string, string>;
  /** Hosts (host, or host:port) the function may connect to. */
  allowNet: string[];
  log: (line: string) => void;
  startTimeoutMs?: number;
}

export async function startFunctionProcess(
  options: StartFunctionOptions,
): Promise<FunctionProcess> {
  const entry = path.join(functionDir(), "serve-locally.ts");
  const child: ChildProcess = spawn(
    denoExecutable(),
    [
      "run",
      "--quiet",
      "--no-prompt",
      `--config=${path.join(functionDir(), "..", "deno.json")}`,
      `--allow-env=${FUNCTION_VARIABLES.join(",")}`,
      `--allow-net=${["127.0.0.1", ...options.allowNet].join(",")}`,
      entry,
    ],
    {
      stdio: ["pipe", "pipe", "pipe"],
      // Its own process group: a Ctrl-C in the terminal signals the whole foreground group, and
      // Deno would die at once, with e-mails sent but not yet recorded (sent again once their
      // lease expired). The backend stops it itself, after the calls in flight have finished.
      detached: true,
      env: {
        ...options.env,
        DENO_NO_UPDATE_CHECK: "1",
        NO_COLOR: "1",
        HOME: process.env.HOME ?? os.homedir(),
        ...(process.env.DENO_DIR ? { DENO_DIR: process.env.DENO_DIR } : {}),
      },
    },
  );
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => resolve(code)),
  );
  readline.createInterface({ input: child.stderr! }).on("line", (line) => options.log(line));
  const lines = readline.createInterface({ input: child.stdout! });

  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error("the notification function did not start within the time limit")),
      options.startTimeoutMs ?? 30_000,
    );
    const onLine = (line: string): void => {
      const match = /listening on port (\d+)/.exec(line);
      if (!match) {
        options.log(line);
        return;
      }
      clearTimeout(timer);
      lines.off("line", onLine);
      lines.on("line", (next) => options.log(next));
      resolve(Number(match[1]));
    };
    lines.on("line", onLine);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the notification function exited at start (code ${code})`));
    });
  }).catch(async (error: unknown) => {
    child.kill("SIGKILL");
    await exited;
    throw error;
  });

  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    exited,
    close() {
      closing ??= (async () => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        child.stdin?.end();
        const timer = setTimeout(() => child.kill("SIGTERM"), 3_000);
        await exited;
        clearTimeout(timer);
      })();
      return closing;
    },
  };
}
