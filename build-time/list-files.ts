import fs from "node:fs/promises";
import path from "node:path";

/** Every file under dir, as "/"-separated paths relative to it, sorted. */
export async function listFiles(dir: string): Promise<string[]> {
  const files: string[] = [];
  const walk = async (relative: string): Promise<void> => {
    for (const entry of await fs.readdir(path.join(dir, relative), { withFileTypes: true })) {
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) await walk(child);
      else if (entry.isFile()) files.push(child);
    }
  };
  await walk("");
  return files.sort();
}
