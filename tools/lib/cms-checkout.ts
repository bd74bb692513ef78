/**
 * /admin/ (Sveltia CMS) on a checkout in the browser, for the e2e tests and bench:content.
 *
 * Locally the editor clicks "Work with Local Repository" and picks the project folder. A script
 * cannot click through the browser's folder picker, so the picker here returns a folder in the
 * browser's private file system (OPFS), filled with a copy of content/. Everything after that is
 * the real CMS writing real files, read back out of the browser.
 */
import fs from "node:fs";
import path from "node:path";

import type { Page } from "playwright-core";

import { PROJECT_ROOT } from "./test-build";

const CONTENT = path.join(PROJECT_ROOT, "content");
const CHECKOUT = "checkout";
/** The one address outside the site the CMS asks for: GitHub's status, on the sign-in page. */
export const GITHUB_STATUS = /^https:\/\/www\.githubstatus\.com\//;

/** Before /admin/ loads: GitHub is up (there is no network) and the folder picker picks the checkout. */
export async function pickCheckout(page: Page): Promise<void> {
  await page.route(GITHUB_STATUS, (route) =>
    route.fulfill({ json: { status: { indicator: "none" } } }),
  );
  // Plain assignments and loops in the page's functions: tsx would wrap a named function in a
  // helper the page does not have.
  await page.addInitScript((folder) => {
    (
      window as unknown as { showDirectoryPicker: () => Promise<FileSystemDirectoryHandle> }
    ).showDirectoryPicker = async () =>
      (await navigator.storage.getDirectory()).getDirectoryHandle(folder);
  }, CHECKOUT);
}

/** Every file under content/, by its repository path with "/", as base64. */
function contentFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of fs.readdirSync(CONTENT, { recursive: true, encoding: "utf8" })) {
    const full = path.join(CONTENT, name);
    if (fs.statSync(full).isFile())
      files[`content/${name.split(path.sep).join("/")}`] = fs.readFileSync(full).toString("base64");
  }
  return files;
}

/** On /admin/: a fresh checkout holding a copy of content/, then "Work with Local Repository". */
export async function openCheckout(page: Page): Promise<void> {
  await page.evaluate(
    async ({ folder, files }) => {
      const storage = await navigator.storage.getDirectory();
      await storage.removeEntry(folder, { recursive: true }).catch(() => undefined);
      const root = await storage.getDirectoryHandle(folder, { create: true });
      await root.getDirectoryHandle(".git", { create: true }); // the CMS checks that it got a repository's root
      for (const [name, base64] of Object.entries(files)) {
        const parts = name.split("/");
        let dir = root;
        for (const part of parts.slice(0, -1))
          dir = await dir.getDirectoryHandle(part, { create: true });
        const file = await dir.getFileHandle(parts.at(-1)!, { create: true });
        const writable = await file.createWritable();
        await writable.write(Uint8Array.from(atob(base64), (char) => char.charCodeAt(0)));
        await writable.close();
      }
    },
    { folder: CHECKOUT, files: contentFiles() },
  );
  await page.getByRole("button", { name: "Work with Local Repository" }).click();
}

/** The files under content/ as the CMS left them, base64 by repository path. */
export async function filesWritten(page: Page): Promise<Record<string, string>> {
  return page.evaluate(async (folder) => {
    const result: Record<string, string> = {};
    const root = await (await navigator.storage.getDirectory()).getDirectoryHandle(folder);
    const folders = [{ dir: await root.getDirectoryHandle("content"), prefix: "content/" }];
    for (const { dir, prefix } of folders) {
      for await (const [name, handle] of dir as unknown as AsyncIterable<
        [string, FileSystemHandle]
      >) {
        if (handle instanceof FileSystemDirectoryHandle)
          folders.push({ dir: handle, prefix: `${prefix}${name}/` });
        else if (handle instanceof FileSystemFileHandle) {
          const bytes = new Uint8Array(await (await handle.getFile()).arrayBuffer());
          result[`${prefix}${name}`] = btoa(
            Array.from(bytes, (byte) => String.fromCharCode(byte)).join(""),
          );
        }
      }
    }
    return result;
  }, CHECKOUT);
}
