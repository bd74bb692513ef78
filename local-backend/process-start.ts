/**
 * When a process started (epoch milliseconds), to tell the process that wrote a lock file
 * from an unrelated one that later got the same pid. Linux reads /proc; macOS and other
 * Unix systems ask `ps`; undefined when it cannot be known (the process is gone, or Windows).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";

/** Linux's USER_HZ, the unit of /proc/<pid>/stat's start time: 100 on every mainstream build. */
const CLOCK_TICKS_PER_SECOND = 100;

let bootTimeMs: number | undefined;

function linuxStartTime(pid: number): number | undefined {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // The command name (field 2) may hold spaces and parentheses: count fields after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[19]); // field 22 overall
  if (!Number.isFinite(ticks)) return undefined;
  if (bootTimeMs === undefined) {
    const btime = /^btime (\d+)$/m.exec(fs.readFileSync("/proc/stat", "utf8"))?.[1];
    if (btime === undefined) return undefined;
    bootTimeMs = Number(btime) * 1000;
  }
  return bootTimeMs + (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}

function psStartTime(pid: number): number | undefined {
  const result = spawnSync("ps", ["-o", "lstart=", "-p", String(pid)], {
    encoding: "utf8",
    env: { ...process.env, LC_ALL: "C" },
  });
  const text = result.status === 0 ? result.stdout.trim() : "";
  const time = text ? Date.parse(text) : Number.NaN;
  return Number.isFinite(time) ? time : undefined;
}

export function processStartTime(pid: number): number | undefined {
  if (process.platform === "linux") return linuxStartTime(pid);
  if (process.platform === "win32") return undefined;
  return psStartTime(pid);
}
