/**
 * /admin/: marketing staff edit the page's content in the browser (Sveltia CMS, see cms/).
 *
 * Locally the CMS works on the checkout through the browser's File System Access API: the editor
 * clicks "Work with Local Repository" and picks the project folder. A test cannot click through
 * the browser's folder picker, so the picker here returns a folder in the browser's private file
 * system (OPFS), filled with a copy of content/. Everything after that is the real CMS writing
 * real files; the test then copies what it wrote to disk and runs the content check on it.
 *
 * /admin/ comes from the build (plugins/cms-admin) with the headers of public/_headers, so its own
 * Content-Security-Policy is in force: the fixture fails any test on a CSP violation.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Locator, Page } from "@playwright/test";
import { load } from "js-yaml";
import { checkContentDirectory } from "../../build-time/content/check-content";
import { formatReport } from "../../build-time/content/problems";
import { PROJECT_ROOT } from "../../tools/lib/test-build";
import { expect, test } from "../support/fixtures";

const CONTENT = path.join(PROJECT_ROOT, "content");
const CHECKOUT = "checkout";

/** Every file under content/ (YAML, pictures, schemas) as base64, keyed by its path in the repository. */
function checkoutFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else files[path.relative(PROJECT_ROOT, full).split(path.sep).join("/")] = fs.readFileSync(full).toString("base64");
    }
  };
  walk(CONTENT);
  return files;
}

/** Opens /admin/ on a copy of the checkout's content, as an editor who picked the project folder. */
async function openCmsOnCheckout(page: Page): Promise<void> {
  // The sign-in page asks GitHub's status page whether GitHub is up; the test has no network.
  await page.route("https://www.githubstatus.com/**", (route) => route.fulfill({ json: { status: { indicator: "none" } } }));
  await page.addInitScript((folder) => {
    Object.assign(window, { showDirectoryPicker: async () => (await navigator.storage.getDirectory()).getDirectoryHandle(folder) });
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
        for (const part of parts.slice(0, -1)) dir = await dir.getDirectoryHandle(part, { create: true });
        const writable = await (await dir.getFileHandle(parts[parts.length - 1] ?? "", { create: true })).createWritable();
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
async function filesWritten(page: Page): Promise<Record<string, string>> {
  return page.evaluate(async (folder) => {
    const result: Record<string, string> = {};
    const walk = async (dir: FileSystemDirectoryHandle, prefix: string) => {
      for await (const [name, handle] of dir as unknown as AsyncIterable<[string, FileSystemHandle]>) {
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
function writeToDisk(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "cms-e2e-"));
  for (const [name, base64] of Object.entries(files)) {
    const target = path.join(root, ...name.split("/"));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, Buffer.from(base64, "base64"));
  }
  return path.join(root, "content");
}

function yamlOf(contentDir: string, name: string): Record<string, unknown> {
  return load(fs.readFileSync(path.join(contentDir, `${name}.yaml`), "utf8")) as Record<string, unknown>;
}

async function openSection(page: Page, label: RegExp): Promise<void> {
  await page.getByRole("row", { name: label }).click();
  await expect(page.getByRole("button", { name: "Save" })).toBeVisible();
}

async function save(page: Page): Promise<void> {
  const button = page.getByRole("button", { name: "Save" });
  await button.click();
  // Once the file is written the CMS says so and returns to the list of sections.
  await expect(page.getByText("Entry saved.")).toBeVisible();
  await expect(page.getByRole("row", { name: "Platform solutions" })).toBeVisible();
}

/** The CMS renders list items as they scroll into view: scroll the form until the element exists. */
async function scrollTo(page: Page, locator: Locator): Promise<Locator> {
  for (let attempt = 0; attempt < 40 && (await locator.count()) === 0; attempt++) {
    await page.getByRole("group", { name: /^Edit / }).hover();
    await page.mouse.wheel(0, 300);
    await page.waitForTimeout(100);
  }
  await locator.scrollIntoViewIfNeeded();
  return locator;
}

/** The text box an "Add …" button just added: the one of that name that is still empty. */
async function emptyTextbox(page: Page, name: string): Promise<Locator> {
  const boxes = page.getByRole("textbox", { name });
  for (let index = (await boxes.count()) - 1; index >= 0; index--) {
    if ((await boxes.nth(index).inputValue()) === "") return boxes.nth(index);
  }
  throw new Error(`No empty "${name}" box on the form.`);
}

function field(page: Page, label: string) {
  return page.getByRole("group", { name: new RegExp(`“.?${label}.?” Field`) });
}

test("an editor changes a subtitle, adds a highlight, changes a date, reorders perks and replaces the meeting picture; the files pass the content check", async ({ page }) => {
  test.setTimeout(60_000);
  await openCmsOnCheckout(page);

  await openSection(page, /Platform solutions/);
  await (await scrollTo(page, field(page, "Subtitle").first().getByRole("textbox"))).fill("Microtransit that pays for itself");
  await (await scrollTo(page, page.getByRole("button", { name: /Add .?Highlight/ }).first())).click();
  await (await emptyTextbox(page, "Highlight")).fill("Books a ride in under a minute from any phone.");
  await save(page);

  await openSection(page, /Expo section/);
  await field(page, "Start date").getByRole("textbox").fill("2025-05-19");
  const perks = field(page, "Perks");
  // The drag handle also moves an item with the arrow keys (aria-keyshortcuts="ArrowUp ArrowDown Home End").
  await (await scrollTo(page, perks.getByRole("button", { name: "Reorder Item" }).first())).focus();
  await page.keyboard.press("ArrowDown");
  await save(page);

  await openSection(page, /Meeting request section/);
  const newPicture = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "cms-picture-")), "booth-team.png");
  fs.copyFileSync(path.join(CONTENT, "images", "share-card.png"), newPicture);
  await field(page, "Image").getByRole("button", { name: /Replace|Select|Browse/ }).first().click();
  const dialog = page.getByRole("dialog", { name: "Select Image" });
  const [chooser] = await Promise.all([page.waitForEvent("filechooser"), dialog.getByRole("button", { name: "Upload" }).click()]);
  await chooser.setFiles(newPicture);
  await expect(dialog.getByRole("option", { name: "booth-team.png", selected: true })).toBeVisible();
  await dialog.getByRole("button", { name: "Insert" }).click();
  await expect(dialog).toBeHidden();
  await expect(field(page, "Image")).toContainText("booth-team.png");
  await field(page, "Picture description").getByRole("textbox").fill("Our booth team showing a live microtransit demo on a large screen.");
  await save(page);

  const contentDir = writeToDisk(await filesWritten(page));
  const result = checkContentDirectory(contentDir);
  expect(result.errors, formatReport(result).join("\n")).toEqual([]);

  const solutions = yamlOf(contentDir, "solutions") as { offerings: Array<{ subtitle: string; highlights: string[] }> };
  expect(solutions.offerings[0]?.subtitle).toBe("Microtransit that pays for itself");
  expect(solutions.offerings[0]?.highlights.at(-1)).toBe("Books a ride in under a minute from any phone.");
  const expo = yamlOf(contentDir, "expo") as { startDate: string; perks: Array<{ title: string }> };
  expect(expo.startDate).toBe("2025-05-19");
  expect(expo.perks.slice(0, 2).map((perk) => perk.title)).toEqual(["Free ROI calculator consultation", "Live demos"]);
  const meeting = yamlOf(contentDir, "meeting") as { image: string; imageAlt: string };
  expect(meeting.image).toBe("./images/booth-team.png");
  expect(fs.readFileSync(path.join(contentDir, meeting.image))).toEqual(fs.readFileSync(newPicture));
  expect(meeting.imageAlt).toBe("Our booth team showing a live microtransit demo on a large screen.");
});

test("the CMS refuses an empty required field and a bad e-mail address with a plain sentence, and writes nothing", async ({ page }) => {
  await openCmsOnCheckout(page);
  const before = await filesWritten(page);
  await openSection(page, /Contact details/);

  await field(page, "Email").getByRole("textbox").fill("meetings@meridianmobility");
  await field(page, "Phone").getByRole("textbox").fill("");
  await page.getByRole("button", { name: "Save" }).click();

  await expect(field(page, "Email")).toContainText("Expected an e-mail address such as meetings@example.com.");
  await expect(field(page, "Phone")).toContainText(/required/i);
  expect(await filesWritten(page)).toEqual(before);
});
