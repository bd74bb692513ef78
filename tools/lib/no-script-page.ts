/**
 * Our own built page with every script removed: the floor that the start-up benchmark and the
 * audit compare the real page with. Same HTML, CSS, images and headers; nothing that runs.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** A `<script>` element that runs: anything but a data block such as JSON-LD. */
const RUNNING_SCRIPT =
  /<script\b(?![^>]*\btype="application\/(?:ld\+)?json")[^>]*>[\s\S]*?<\/script>/g;

export function withoutScripts(html: string): string {
  return html.replace(RUNNING_SCRIPT, "");
}

/**
 * Copies a built site to a temporary folder and removes every running script from its HTML
 * pages. Returns the folder and a function that deletes it.
 */
export function copyWithoutScripts(publicDir: string): { dir: string; remove: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "no-script-page-"));
  fs.cpSync(publicDir, dir, { recursive: true });
  for (const entry of fs.readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    const file = path.join(dir, entry);
    if (!entry.endsWith(".html") || !fs.statSync(file).isFile()) continue; // page-data/404.html/ is a folder
    fs.writeFileSync(file, withoutScripts(fs.readFileSync(file, "utf8")));
  }
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
