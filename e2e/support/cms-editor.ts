/**
 * Driving /admin/ (Sveltia CMS) as an editor would, for the CMS end-to-end tests.
 *
 * Locally the CMS works on the checkout through the browser's File System Access API: the editor
 * clicks "Work with Local Repository" and picks the project folder. A test cannot click through
 * the browser's folder picker, so the picker here returns a folder in the browser's private file
 * system (OPFS), filled with a copy of content/. Everything after that is the real CMS writing
 * real files; the tests read what it wrote back out of the browser.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { FrameLocator, Locator, Page } from "@playwright/test";
import { load } from "js-yaml";
import { escapeRegExp } from "./content";
import { PROJECT_ROOT } from "../../tools/lib/test-build";
import { expect } from "./fixtures";

export const CONTENT = path.join(PROJECT_ROOT, "content");
const CHECKOUT = "checkout";
/** The one address outside the site the CMS asks for (GitHub's status, on the sign-in page): the tests answer it. */
export const GITHUB_STATUS = "https://www.githubstatus.com/**";

/** Every file under content/ (YAML, pictures, schemas) as base64, keyed by its path in the repository. */
function checkoutFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else
        files[path.relative(PROJECT_ROOT, full).split(path.sep).join("/")] = fs
          .readFileSync(full)
          .toString("base64");
    }
  };
  walk(CONTENT);
  return files;
}

/** Opens /admin/ on a copy of the checkout's content, as an editor who picked the project folder. */
export async function openCmsOnCheckout(page: Page): Promise<void> {
  // The sign-in page asks GitHub's status page whether GitHub is up; the test has no network.
  await page.route(GITHUB_STATUS, (route) =>
    route.fulfill({ json: { status: { indicator: "none" } } }),
  );
  await page.addInitScript((folder) => {
    Object.assign(window, {
      showDirectoryPicker: async () =>
        (await navigator.storage.getDirectory()).getDirectoryHandle(folder),
    });
  }, CHECKOUT);
  const response = await page.goto("/admin/");
  expect(response?.headers()["x-robots-tag"]).toBe("noindex, nofollow");
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
        const writable = await (
          await dir.getFileHandle(parts[parts.length - 1] ?? "", { create: true })
        ).createWritable();
        await writable.write(Uint8Array.from(atob(base64), (char) => char.charCodeAt(0)));
        await writable.close();
      }
    },
    { folder: CHECKOUT, files: checkoutFiles() },
  );
  await page.getByRole("button", { name: "Work with Local Repository" }).click();
  await expect(page.getByRole("row", { name: "Platform solutions" })).toBeVisible();
}

/** The files under content/ as the CMS left them, base64 by repository path. */
export async function filesWritten(page: Page): Promise<Record<string, string>> {
  return page.evaluate(async (folder) => {
    const result: Record<string, string> = {};
    const walk = async (dir: FileSystemDirectoryHandle, prefix: string) => {
      for await (const [name, handle] of dir as unknown as AsyncIterable<
        [string, FileSystemHandle]
      >) {
        if (handle instanceof FileSystemDirectoryHandle) await walk(handle, `${prefix}${name}/`);
        else if (handle instanceof FileSystemFileHandle) {
          const bytes = new Uint8Array(await (await handle.getFile()).arrayBuffer());
          let binary = "";
          for (const byte of bytes) binary += String.fromCharCode(byte);
          result[`${prefix}${name}`] = btoa(binary);
        }
      }
    };
    const root = await (await navigator.storage.getDirectory()).getDirectoryHandle(folder);
    await walk(await root.getDirectoryHandle("content"), "content/");
    return result;
  }, CHECKOUT);
}

/** Writes what the CMS wrote into a fresh folder on disk; returns its content/ folder. */
export function writeToDisk(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "cms-e2e-"));
  for (const [name, base64] of Object.entries(files)) {
    const target = path.join(root, ...name.split("/"));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, Buffer.from(base64, "base64"));
  }
  return path.join(root, "content");
}

export function yamlOf(contentDir: string, name: string): Record<string, unknown> {
  return load(fs.readFileSync(path.join(contentDir, `${name}.yaml`), "utf8")) as Record<
    string,
    unknown
  >;
}

export async function openSection(page: Page, label: RegExp): Promise<void> {
  await page.getByRole("row", { name: label }).click();
  await expect(page.getByRole("button", { name: "Save" })).toBeVisible();
}

export async function save(page: Page): Promise<void> {
  const button = page.getByRole("button", { name: "Save" });
  await button.click();
  // Once the file is written the CMS says so and returns to the list of sections.
  await expect(page.getByText("Entry saved.")).toBeVisible();
  await expect(page.getByRole("row", { name: "Platform solutions" })).toBeVisible();
}

/** The CMS renders list items as they scroll into view: scroll the form until the element exists. */
export async function scrollTo(page: Page, locator: Locator): Promise<Locator> {
  for (let attempt = 0; attempt < 40 && (await locator.count()) === 0; attempt++) {
    await page.getByRole("group", { name: /^Edit / }).hover();
    await page.mouse.wheel(0, 300);
    await page.waitForTimeout(100);
  }
  await locator.scrollIntoViewIfNeeded();
  return locator;
}

/** The text box an "Add …" button just added: the one of that name that is still empty. */
export async function emptyTextbox(page: Page, name: string): Promise<Locator> {
  const boxes = page.getByRole("textbox", { name });
  for (let index = (await boxes.count()) - 1; index >= 0; index--) {
    if ((await boxes.nth(index).inputValue()) === "") return boxes.nth(index);
  }
  throw new Error(`No empty "${name}" box on the form.`);
}

export function field(page: Page, label: string) {
  return page.getByRole("group", { name: new RegExp(`“.?${escapeRegExp(label)}.?” Field`) });
}

/** The CMS preview pane: a frame whose document the CMS writes (the page's stylesheet and the section). */
export function previewPane(page: Page): FrameLocator {
  return page.frameLocator("iframe.preview");
}

/**
 * Every request /admin/ (its page and the preview frame) makes to another origin than the site's,
 * except those matching `answered` (addresses the test itself fulfils). The CMS must fetch nothing
 * from public CDNs.
 */
export function requestsToOtherOrigins(
  page: Page,
  siteUrl: string,
  answered: readonly RegExp[],
): string[] {
  const site = new URL(siteUrl).origin;
  const seen: string[] = [];
  page.on("request", (request) => {
    const url = request.url();
    if (/^(blob|data):/.test(url) || !page.url().startsWith(`${site}/admin/`)) return;
    if (new URL(url).origin !== site && !answered.some((pattern) => pattern.test(url)))
      seen.push(`${request.method()} ${url}`);
  });
  return seen;
}
