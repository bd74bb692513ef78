import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * A built site in a new temporary project: static/_headers (the real template) and public/ holding
 * these files. Returns the public/ folder.
 */
export function builtSite(files: Record<string, string | Buffer>): string {
  const project = fs.mkdtempSync(path.join(os.tmpdir(), "built-site-"));
  const template = path.join(__dirname, "..", "static", "_headers");
  fs.mkdirSync(path.join(project, "static"));
  fs.copyFileSync(template, path.join(project, "static", "_headers"));
  for (const [file, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(project, "public", file)), { recursive: true });
    fs.writeFileSync(path.join(project, "public", file), content);
  }
  fs.mkdirSync(path.join(project, "public"), { recursive: true });
  return path.join(project, "public");
}
