/**
 * /admin/: marketing staff edit the page's content in the browser (Sveltia CMS, see cms/).
 *
 * The CMS works on a copy of content/ in the browser's private file system (e2e/support/cms-editor.ts
 * says why). The first test edits as an editor would, watches the preview pane render the page's
 * own section with the page's styles, and runs the content check on what the CMS wrote; the next
 * builds the site from those files (a real gatsby build of a temporary copy of the project) and
 * finds the edits on the rebuilt page.
 *
 * /admin/ comes from the build (plugins/cms-admin) with the headers of public/_headers, so its own
 * Content-Security-Policy is in force: the fixture fails any test on a CSP violation. Every test
 * here also fails when the CMS asks another origin for anything (fonts, modules, code from CDNs).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Locator, Page } from "@playwright/test";
import { checkContentDirectory } from "../../build-time/content/check-content";
import { formatReport } from "../../build-time/content/messages";
import { buildWithContent } from "../../tools/lib/content-build";
import { startStaticServer } from "../../tools/lib/static-server";
import {
  CONTENT,
  emptyTextbox,
  field,
  filesWritten,
  openCmsOnCheckout,
  openSection,
  previewPane,
  requestsToOtherOrigins,
  save,
  scrollTo,
  writeToDisk,
  yamlOf,
} from "../support/cms-editor";
import { content, pictureDescriptions, squish } from "../support/content";
import { expect, test } from "../support/fixtures";
import { drawnLines } from "../../src/lib/pictures/draw-text";

const NEW_SUBTITLE = "Microtransit that pays for itself";
const NEW_HIGHLIGHT = "Books a ride in under a minute from any phone.";
const NEW_PICTURE_ALT = "Our booth team showing a live microtransit demo on a large screen.";
const PERKS_AFTER_MOVE = ["Free ROI calculator consultation", "Live demos"];
/** The picture uploaded as the meeting picture (1200 × 630, unlike the current one). */
const NEW_PICTURE_SOURCE = path.join(
  path.dirname(CONTENT),
  "build-time",
  "content",
  "__fixtures__",
  "valid",
  "images",
  "share-card.png",
);

/** The label of the meeting section's own-picture field (cms/labels.ts). */
const PICTURE_FIELD = "Your own picture (optional)";

/** The SVG source of a drawn picture shown as a data: URL. */
async function svgOf(image: Locator): Promise<string> {
  const src = (await image.getAttribute("src")) ?? "";
  expect(src).toMatch(/^data:image\/svg\+xml;charset=utf-8,/);
  return decodeURIComponent(src.slice(src.indexOf(",") + 1));
}

let otherOrigins: string[] = [];
test.beforeEach(({ page, baseURL }) => {
  otherOrigins = requestsToOtherOrigins(page, baseURL ?? "", [
    /^https:\/\/www\.githubstatus\.com\//,
  ]);
});
test.afterEach(() => {
  expect(otherOrigins, "requests from /admin/ to other origins").toEqual([]);
});

const STYLE_PROPERTIES = [
  "font-family",
  "font-size",
  "font-weight",
  "color",
  "background-color",
  "border-radius",
  "box-shadow",
  "display",
] as const;

async function stylesOf(locator: Locator): Promise<Record<string, string>> {
  return locator.evaluate((element, properties) => {
    const style = getComputedStyle(element);
    return Object.fromEntries(
      properties.map((property) => [property, style.getPropertyValue(property)]),
    );
  }, STYLE_PROPERTIES);
}

/**
 * The same elements on the landing page (the build the e2e run serves), in a window as wide as the
 * preview pane: the page's type scales with the window's width (clamp() with vw).
 */
async function pageStyles(page: Page): Promise<Record<string, Record<string, string>>> {
  const width = await page
    .locator("iframe.preview")
    .evaluate((frame: HTMLIFrameElement) => frame.contentWindow?.innerWidth ?? 0);
  const landing = await page.context().newPage();
  await landing.setViewportSize({ width, height: 800 });
  await landing.goto("/");
  const styles = {
    heading: await stylesOf(landing.locator("#solutions-heading")),
    card: await stylesOf(landing.locator("#solutions article").first()),
    cardHeader: await stylesOf(landing.locator("#solutions article header").first()),
    cardTitle: await stylesOf(landing.locator("#solutions article h3").first()),
    button: await stylesOf(landing.locator("#solutions article a").first()),
  };
  await landing.close();
  return styles;
}

/** What the CMS wrote in the first test, on disk: the second test builds the site from it. */
let editedContent: string | undefined;

test("the sign-in screen belongs to the company: its name and mark, the project's folder, no vendor placeholder", async ({
  page,
}) => {
  await page.route(/^https:\/\/www\.githubstatus\.com\//, (route) =>
    route.fulfill({ json: { status: { indicator: "none" } } }),
  );
  await page.goto("/admin/");
  const title = "Meridian Mobility Systems · Website editor";
  await expect(page).toHaveTitle(title);
  // Sveltia wraps the name in Unicode isolates (U+2068 … U+2069).
  await expect(
    page.getByText(
      new RegExp(
        `choose the project folder “\u2068?${path.basename(path.dirname(CONTENT))}\u2069?”`,
      ),
    ),
  ).toBeVisible();
  await expect(page.locator("body")).not.toContainText(/your-repository|root directory/);
  const logo = page.locator('img[src="/favicon.svg"]').first();
  await expect(logo).toBeVisible();
  expect(await logo.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
  await page.screenshot({ path: test.info().outputPath("sign-in.png") });
});

test.describe.serial("editing through /admin/", () => {
  test("an editor changes a subtitle, adds a highlight, changes a date, reorders perks and replaces the meeting picture; the preview shows the page's own section and the files pass the content check", async ({
    page,
  }) => {
    test.setTimeout(90_000);
    await openCmsOnCheckout(page);

    await openSection(page, /Platform solutions/);
    await (
      await scrollTo(page, field(page, "Subtitle").first().getByRole("textbox"))
    ).fill(NEW_SUBTITLE);
    await (
      await scrollTo(page, page.getByRole("button", { name: /Add .?Highlight/ }).first())
    ).click();
    await (await emptyTextbox(page, "Highlight")).fill(NEW_HIGHLIGHT);

    // The preview is the page's section (same markup, same styles), with the edits as they are typed.
    const preview = previewPane(page);
    const firstCard = preview.locator("#solutions article").first();
    await expect(firstCard.locator("header p")).toHaveText(NEW_SUBTITLE);
    await expect(firstCard.getByRole("listitem").last()).toHaveText(NEW_HIGHLIGHT);
    const expected = await pageStyles(page);
    expect(await stylesOf(preview.locator("#solutions-heading"))).toEqual(expected.heading);
    expect(await stylesOf(firstCard)).toEqual(expected.card);
    expect(await stylesOf(firstCard.locator("header"))).toEqual(expected.cardHeader);
    expect(await stylesOf(firstCard.locator("h3"))).toEqual(expected.cardTitle);
    expect(await stylesOf(firstCard.locator("a"))).toEqual(expected.button);
    await expect(preview.locator("#solutions article")).toHaveCount(5);
    await expect(preview.locator("#consulting-heading")).toBeVisible();
    await page.screenshot({ path: test.info().outputPath("preview-solutions.png") });
    await save(page);

    await openSection(page, /Expo section/);
    await field(page, "Start date").getByRole("textbox").fill("2025-05-19");
    const perks = field(page, "Perks");
    // The drag handle also moves an item with the arrow keys (aria-keyshortcuts="ArrowUp ArrowDown Home End").
    await (
      await scrollTo(page, perks.getByRole("button", { name: "Reorder Item" }).first())
    ).focus();
    await page.keyboard.press("ArrowDown");
    await expect(preview.locator("#expo li h4").first()).toHaveText(PERKS_AFTER_MOVE[0] ?? "");
    // The sharing card in the preview is redrawn with the new first day, as the build will draw it.
    const card = preview.getByRole("img", {
      name: /^Meridian Mobility Systems at CTAA Expo 2025, booth 713, May 19 – 21, 2025/,
    });
    await expect(card).toBeVisible();
    expect(drawnLines(await svgOf(card))).toContain("May 19 – 21, 2025 · Palm Springs, CA");
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath("preview-sharing-card.png") });
    await save(page);

    await openSection(page, /Meeting request section/);
    const newPicture = path.join(
      fs.mkdtempSync(path.join(os.tmpdir(), "cms-picture-")),
      "booth-team.png",
    );
    fs.copyFileSync(NEW_PICTURE_SOURCE, newPicture);
    // Until the editor chooses a picture of their own, the preview shows the illustration the build draws.
    const drawnIllustration = preview.getByRole("img", {
      name: squish(pictureDescriptions.meeting),
    });
    await expect(drawnIllustration).toBeVisible();
    expect(drawnLines(await svgOf(drawnIllustration)).slice(0, 2)).toEqual([
      content.site.shortName.toUpperCase(),
      `BOOTH ${content.expo.booth}`,
    ]);
    await field(page, PICTURE_FIELD)
      .getByRole("button", { name: /Replace|Select|Browse/ })
      .first()
      .click();
    const dialog = page.getByRole("dialog", { name: "Select Image" });
    const [chooser] = await Promise.all([
      page.waitForEvent("filechooser"),
      dialog.getByRole("button", { name: "Upload" }).click(),
    ]);
    await chooser.setFiles(newPicture);
    await expect(
      dialog.getByRole("option", { name: "booth-team.png", selected: true }),
    ).toBeVisible();
    await dialog.getByRole("button", { name: "Insert" }).click();
    await expect(dialog).toBeHidden();
    await expect(field(page, PICTURE_FIELD)).toContainText("booth-team.png");
    await field(page, "Picture description").getByRole("textbox").fill(NEW_PICTURE_ALT);
    // The uploaded picture shows in the preview, with its description, at its own proportions.
    const picture = preview.getByRole("img", { name: NEW_PICTURE_ALT });
    await expect(picture).toBeVisible();
    await expect
      .poll(() =>
        picture.evaluate(
          (image: HTMLImageElement) => image.naturalWidth / Math.max(image.naturalHeight, 1),
        ),
      )
      .toBeCloseTo(1200 / 630, 2);
    await expect(preview.getByRole("heading", { name: "Book Your Meeting" })).toBeVisible();
    await picture.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath("preview-meeting.png") });
    await save(page);

    const contentDir = writeToDisk(await filesWritten(page));
    const result = checkContentDirectory(contentDir);
    expect(result.errors, formatReport(result).join("\n")).toEqual([]);

    const solutions = yamlOf(contentDir, "solutions") as {
      offerings: Array<{ subtitle: string; highlights: string[] }>;
    };
    expect(solutions.offerings[0]?.subtitle).toBe(NEW_SUBTITLE);
    expect(solutions.offerings[0]?.highlights.at(-1)).toBe(NEW_HIGHLIGHT);
    const expo = yamlOf(contentDir, "expo") as {
      startDate: string;
      perks: Array<{ title: string }>;
    };
    expect(expo.startDate).toBe("2025-05-19");
    expect(expo.perks.slice(0, 2).map((perk) => perk.title)).toEqual(PERKS_AFTER_MOVE);
    const meeting = yamlOf(contentDir, "meeting") as { image: string; imageAlt: string };
    expect(meeting.image).toBe("./images/booth-team.png");
    expect(fs.readFileSync(path.join(contentDir, meeting.image))).toEqual(
      fs.readFileSync(newPicture),
    );
    expect(meeting.imageAlt).toBe(NEW_PICTURE_ALT);
    editedContent = contentDir;
  });

  test("the site built from the files the CMS wrote shows the new subtitle, highlight, perk order and picture", async ({
    page,
    backend,
  }) => {
    // A real gatsby build (2–3 minutes on a 2-core machine); its time is printed, not asserted.
    test.setTimeout(15 * 60_000);
    if (!editedContent) throw new Error("The editing test above wrote no content.");
    const build = await buildWithContent(editedContent, backend.url);
    console.log(`cms e2e: gatsby build of the CMS's files took ${build.buildSeconds.toFixed(0)} s`);
    const server = await startStaticServer({ root: build.publicDir });
    try {
      await page.goto(`${server.url}/`);
      const firstCard = page.locator("#solutions article").first();
      await expect(firstCard.locator("header p")).toHaveText(NEW_SUBTITLE);
      await expect(firstCard.getByRole("listitem").last()).toHaveText(NEW_HIGHLIGHT);
      expect((await page.locator("#expo li h4").allTextContents()).slice(0, 2)).toEqual(
        PERKS_AFTER_MOVE,
      );
      const picture = page.locator("#contact-form").getByRole("img", { name: NEW_PICTURE_ALT });
      await picture.scrollIntoViewIfNeeded();
      await expect(picture).toBeVisible();
      await expect
        .poll(() =>
          picture.evaluate(
            (image: HTMLImageElement) => image.naturalWidth / Math.max(image.naturalHeight, 1),
          ),
        )
        .toBeCloseTo(1200 / 630, 2);
    } finally {
      await server.close();
      build.remove();
    }
  });
});

test("the CMS refuses an empty required field and a bad e-mail address with a plain sentence, and writes nothing", async ({
  page,
}) => {
  await openCmsOnCheckout(page);
  const before = await filesWritten(page);
  await openSection(page, /Contact details/);

  await field(page, "Email").getByRole("textbox").fill("meetings@meridianmobility");
  await field(page, "Phone").getByRole("textbox").fill("");
  await page.getByRole("button", { name: "Save" }).click();

  await expect(field(page, "Email")).toContainText(
    "Expected an e-mail address such as meetings@example.com.",
  );
  await expect(field(page, "Phone")).toContainText(/required/i);
  expect(await filesWritten(page)).toEqual(before);
});

test("a sign-in window opened by /admin/ (the OAuth client at CMS_AUTH_URL) can report back to it: the opener policy keeps the link", async ({
  page,
}) => {
  // "Sign In with GitHub" opens the authenticator in a popup that answers through window.opener.
  const authenticator = "https://cms-auth.example.test";
  await page.context().route(`${authenticator}/**`, (route) =>
    route.fulfill({
      contentType: "text/html",
      body: "<!doctype html><title>Authenticator</title>",
    }),
  );
  await openCmsOnCheckout(page);
  const [popup] = await Promise.all([
    page.waitForEvent("popup"),
    page.evaluate(
      (url) => void window.open(`${url}/auth?provider=github`, "auth", "width=600,height=800"),
      authenticator,
    ),
  ]);
  await popup.waitForLoadState();
  expect(await popup.evaluate(() => window.opener !== null)).toBe(true);
  await popup.close();
});

test("every section's preview is its part of the page, with what it shows from other files", async ({
  page,
}) => {
  await openCmsOnCheckout(page);
  const preview = previewPane(page);
  const sections: Array<[RegExp, (frame: typeof preview) => Locator]> = [
    [/Company facts/, (frame) => frame.locator("footer").getByRole("link", { name: "MobilityDR" })],
    [/First screen/, (frame) => frame.locator("#hero-heading")],
    [/Consulting/, (frame) => frame.locator("#consulting-heading")],
    [/Contact details/, (frame) => frame.getByRole("heading", { name: "Contact Information" })],
    [/Footer/, (frame) => frame.locator("footer address")],
  ];
  for (const [label, landmark] of sections) {
    await openSection(page, label);
    await expect(landmark(preview)).toBeVisible();
    if (label.source === "First screen")
      await page.screenshot({ path: test.info().outputPath("preview-hero.png") });
    // Back to the list of sections (the CMS routes by the address's hash).
    await page.evaluate(() => void (location.hash = "#/collections/page"));
    await expect(page.getByRole("row", { name: "Platform solutions" })).toBeVisible();
  }
});
