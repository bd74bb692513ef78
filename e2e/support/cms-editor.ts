/**
 * Driving /admin/ (Sveltia CMS) as an editor would, on a checkout in the browser's private file
 * system; the tests read what the CMS wrote back out of the browser.
 *
 * Locally the editor clicks "Work with Local Repository" and picks the project folder. A script
 * cannot click through the browser's folder picker, so the picker here returns a folder in the
 * browser's private file system (OPFS), filled with a copy of content/. Everything after that is
 * the real CMS writing real files.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { FrameLocator, Locator, Page } from "@playwright/test";
import { parse } from "yaml";
import { PROJECT_ROOT } from "../../tools/lib/test-build";
import { escapeRegExp } from "./content";
import { expect } from "./fixtures";

const CHECKOUT = "checkout";
/** The one address outside the site the CMS asks for: GitHub's status, on the sign-in page. */
const GITHUB_STATUS = /^https:\/\/www\.githubstatus\.com\//;

/** Before /admin/ loads: GitHub is up (there is no network) and the folder picker picks the checkout. */
async function pickCheckout(page: Page): Promise<void> {
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
  for (const name of fs.readdirSync(path.join(PROJECT_ROOT, "content"), {
    recursive: true,
    encoding: "utf8",
  })) {
    const full = path.join(PROJECT_ROOT, "content", name);
    if (fs.statSync(full).isFile())
      files[`content/${name.split(path.sep).join("/")}`] = fs.readFileSync(full).toString("base64");
  }
  return files;
}

/** On /admin/: a fresh checkout holding a copy of content/, then "Work with Local Repository". */
async function openCheckout(page: Page): Promise<void> {
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

/**
 * Opens /admin/ on a copy of the checkout's content, as an editor who picked the project folder.
 * On the way, the sign-in screen belongs to the company: its name and mark, the project's folder,
 * no vendor placeholder.
 */
export async function openCmsOnCheckout(page: Page): Promise<void> {
  await pickCheckout(page);
  const response = await page.goto("/admin/");
  expect(response?.headers()["x-robots-tag"]).toBe("noindex, nofollow");
  await expect(page).toHaveTitle("Meridian Mobility Systems · Website editor");
  // Sveltia wraps the name in Unicode isolates (U+2068 … U+2069).
  const folder = path.basename(PROJECT_ROOT);
  await expect(
    page.getByText(new RegExp(`choose the project folder “\u2068?${folder}\u2069?”`)),
  ).toBeVisible();
  await expect(page.locator("body")).not.toContainText(/your-repository|root directory/);
  const logo = page.locator('img[src="/favicon.svg"]').first();
  await expect(logo).toBeVisible();
  expect(await logo.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
  await openCheckout(page);
  await expect(page.getByRole("row", { name: "Platform solutions" })).toBeVisible();
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

export function yamlOf<T>(contentDir: string, name: string): T {
  return parse(fs.readFileSync(path.join(contentDir, `${name}.yaml`), "utf8")) as T;
}

export async function openSection(page: Page, label: RegExp): Promise<void> {
  await page.getByRole("row", { name: label }).click();
  await expect(page.getByRole("button", { name: "Save" })).toBeVisible();
}

/** Saves; once the file is written the CMS says so and returns to the list of sections. */
export async function save(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Save" }).click();
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

export function field(page: Page, label: string): Locator {
  return page.getByRole("group", { name: new RegExp(`“.?${escapeRegExp(label)}.?” Field`) });
}

/**
 * Every request /admin/ (its page and the preview frame) makes to another origin than the
 * site's, GitHub's status excepted (the tests answer it). The CMS must fetch nothing from CDNs.
 */
export function requestsToOtherOrigins(page: Page, siteUrl: string): string[] {
  const site = new URL(siteUrl).origin;
  const seen: string[] = [];
  page.on("request", (request) => {
    const url = request.url();
    if (/^(blob|data):/.test(url) || !page.url().startsWith(`${site}/admin/`)) return;
    if (new URL(url).origin !== site && !GITHUB_STATUS.test(url))
      seen.push(`${request.method()} ${url}`);
  });
  return seen;
}

/** The CMS preview pane: a frame whose document the CMS writes (the page's stylesheet and the section). */
export const previewPane = (page: Page): FrameLocator => page.frameLocator("iframe.preview");

/** The SVG source of a drawn picture shown as a data: URL. */
export async function svgOf(image: Locator): Promise<string> {
  const src = (await image.getAttribute("src")) ?? "";
  expect(src).toMatch(/^data:image\/svg\+xml;charset=utf-8,/);
  return decodeURIComponent(src.slice(src.indexOf(",") + 1));
}

/** A picture's width over its height, once it has loaded. */
export const proportions = (picture: Locator) =>
  picture.evaluate(
    (image: HTMLImageElement) => image.naturalWidth / Math.max(image.naturalHeight, 1),
  );

/** The solutions section's parts whose look the preview must share with the page. */
const STYLED = {
  heading: "#solutions-heading",
  card: "#solutions article",
  cardHeader: "#solutions article header",
  cardTitle: "#solutions article h3",
  button: "#solutions article a",
};

const LOOK = [
  "font-family",
  "font-size",
  "font-weight",
  "color",
  "background-color",
  "border-radius",
  "box-shadow",
  "display",
];

/** The computed styles that make the look, of the first element each selector finds. */
export async function looks(frame: Page | FrameLocator): Promise<Record<string, string[]>> {
  const result: Record<string, string[]> = {};
  for (const [part, selector] of Object.entries(STYLED)) {
    result[part] = await frame
      .locator(selector)
      .first()
      .evaluate(
        (element, properties) =>
          properties.map((name) => `${name}: ${getComputedStyle(element).getPropertyValue(name)}`),
        LOOK,
      );
  }
  return result;
}

/** The same parts on the landing page in a window as wide as the preview (the type scales with vw). */
export async function pageLooks(page: Page): Promise<Record<string, string[]>> {
  const width = await page
    .locator("iframe.preview")
    .evaluate((frame: HTMLIFrameElement) => frame.contentWindow?.innerWidth ?? 0);
  const landing = await page.context().newPage();
  await landing.setViewportSize({ width, height: 800 });
  await landing.goto("/");
  const result = await looks(landing);
  await landing.close();
  return result;
}
