import { spawn } from "node:child_process";
import fs from "node:fs";

export type LoggedRun = {
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  logFile: string;
};

/**
 * Runs a long command (a Gatsby build) with its whole output in `logFile`, and resolves with its
 * exit code and the last `tailLines` lines of that log, for an error message a person can act on.
 */
export async function runWithLog(
  run: LoggedRun,
  tailLines: number,
): Promise<{ code: number; tail: string }> {
  const log = fs.createWriteStream(run.logFile);
  const code = await new Promise<number>((resolve, reject) => {
    const child = spawn(run.command, run.args, {
      cwd: run.cwd,
      env: run.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    child.once("error", reject);
    child.once("close", (status) => resolve(status ?? 1));
  });
  await new Promise<void>((resolve) => log.end(resolve));
  const tail =
    code === 0
      ? ""
      : fs.readFileSync(run.logFile, "utf8").trimEnd().split("\n").slice(-tailLines).join("\n");
  return { code, tail };
}
