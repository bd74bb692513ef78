import fs from "node:fs";

/** The names in a folder, or none when it cannot be read (a missing folder is reported elsewhere). */
export function safeReadDir(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

/** A file's text, or `undefined` when it cannot be read (deleted between the event and the read). */
export function readTextIfPresent(file: string): string | undefined {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}
