/**
 * /admin/: marketing staff edit the page's content in the browser (Sveltia CMS, see cms/), on a
 * copy of content/ (e2e/support/cms-editor.ts says how). An editor's edits show in the preview,
 * which is the page's own section with the page's styles; the files the CMS writes pass the
 * content check, and a site built from them shows the edits.
 *
 * /admin/ comes from the build with the headers of public/_headers, so its own CSP is in force
 * (the fixture fails a test on a violation), and every test fails when the CMS asks another
 * origin for anything (fonts, modules, code from CDNs).
 */
import fs from "node:fs";
import path from "node:path";
import type { Locator } from "@playwright/test";
import { checkContentDirectory } from "../../build-time/content/check-content";
import { formatReport } from "../../build-time/content/messages";
import { drawnLines } from "../../src/lib/pictures/draw-text";
import { visitContentBuild } from "../../tools/lib/content-build";
import { PROJECT_ROOT } from "../../tools/lib/test-build";
import * as cms from "../support/cms-editor";
import { content, pictureDescriptions, squish } from "../support/content";
import { expect, test } from "../support/fixtures";

const NEW_SUBTITLE = "Microtransit that pays for itself";
const NEW_HIGHLIGHT = "Books a ride in under a minute from any phone.";
const NEW_PICTURE_ALT = "Our booth team showing a live microtransit demo on a large screen.";
const PERKS_AFTER_MOVE = ["Free ROI calculator consultation", "Live demos"];
/** Uploaded as the meeting picture: 1200 × 630, unlike the drawn one. */
const NEW_PICTURE = fs.readFileSync(
  path.join(PROJECT_ROOT, "build-time/content/__fixtures__/valid/images/share-card.png"),
);
/** The label of the meeting section's own-picture field (cms/labels.ts). */
const PICTURE_FIELD = "Your own picture (optional)";

let otherOrigins: string[] = [];
test.beforeEach(({ page, baseURL }) => {
  otherOrigins = cms.requestsToOtherOrigins(page, baseURL!);
});
test.afterEach(() => {
  expect(otherOrigins, "requests from /admin/ to other origins").toEqual([]);
});

test.describe.serial("editing through /admin/", () => {
  /** What the CMS wrote in the first test, on disk: the second builds the site from it. */
  let editedContent: string | undefined;

  test("an editor changes a subtitle, adds a highlight, changes a date, reorders perks and replaces the meeting picture; the preview shows the page's own section and the files pass the content check", async ({
    page,
  }) => {
    test.setTimeout(90_000);
    await cms.openCmsOnCheckout(page);
    const preview = cms.previewPane(page);

    await cms.openSection(page, /Platform solutions/);
    const subtitle = cms.field(page, "Subtitle").first().getByRole("textbox");
    await (await cms.scrollTo(page, subtitle)).fill(NEW_SUBTITLE);
    const addHighlight = page.getByRole("button", { name: /Add .?Highlight/ }).first();
    await (await cms.scrollTo(page, addHighlight)).click();
    await (await cms.emptyTextbox(page, "Highlight")).fill(NEW_HIGHLIGHT);
    // The preview is the page's section, same markup and styles, with the edits as they are typed.
    const firstCard = preview.locator("#solutions article").first();
    await expect(firstCard.locator("header p")).toHaveText(NEW_SUBTITLE);
    await expect(firstCard.getByRole("listitem").last()).toHaveText(NEW_HIGHLIGHT);
    expect(await cms.looks(preview)).toEqual(await cms.pageLooks(page));
    await expect(preview.locator("#solutions article")).toHaveCount(5);
    await expect(preview.locator("#consulting-heading")).toBeVisible();
    await page.screenshot({ path: test.info().outputPath("preview-solutions.png") });
    await cms.save(page);

    await cms.openSection(page, /Expo section/);
    await cms.field(page, "Start date").getByRole("textbox").fill("2025-05-19");
    // The drag handle also moves an item with the arrow keys (aria-keyshortcuts="ArrowUp ArrowDown Home End").
    const handle = cms.field(page, "Perks").getByRole("button", { name: "Reorder Item" }).first();
    await (await cms.scrollTo(page, handle)).focus();
    await page.keyboard.press("ArrowDown");
    await expect(preview.locator("#expo li h4").first()).toHaveText(PERKS_AFTER_MOVE[0]!);
    // The sharing card in the preview is redrawn with the new first day, as the build will draw it.
    const card = preview.getByRole("img", {
      name: /^Meridian Mobility Systems at CTAA Expo 2025, booth 713, May 19 – 21, 2025/,
    });
    await expect(card).toBeVisible();
    expect(drawnLines(await cms.svgOf(card))).toContain("May 19 – 21, 2025 · Palm Springs, CA");
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath("preview-sharing-card.png") });
    await cms.save(page);

    await cms.openSection(page, /Meeting request section/);
    // Until the editor chooses a picture of their own, the preview shows the one the build draws.
    const drawn = preview.getByRole("img", { name: squish(pictureDescriptions.meeting) });
    await expect(drawn).toBeVisible();
    expect(drawnLines(await cms.svgOf(drawn)).slice(0, 2)).toEqual([
      content.site.shortName.toUpperCase(),
      `BOOTH ${content.expo.booth}`,
    ]);
    const upload = { name: "booth-team.png", mimeType: "image/png", buffer: NEW_PICTURE };
    await cms
      .field(page, PICTURE_FIELD)
      .getByRole("button", { name: /Replace|Select|Browse/ })
      .first()
      .click();
    const dialog = page.getByRole("dialog", { name: "Select Image" });
    const chooser = page.waitForEvent("filechooser");
    await dialog.getByRole("button", { name: "Upload" }).click();
    await (await chooser).setFiles(upload);
    await expect(
      dialog.getByRole("option", { name: "booth-team.png", selected: true }),
    ).toBeVisible();
    await dialog.getByRole("button", { name: "Insert" }).click();
    await expect(dialog).toBeHidden();
    await expect(cms.field(page, PICTURE_FIELD)).toContainText("booth-team.png");
    await cms.field(page, "Picture description").getByRole("textbox").fill(NEW_PICTURE_ALT);
    // The uploaded picture shows in the preview, with its description, at its own proportions.
    const picture = preview.getByRole("img", { name: NEW_PICTURE_ALT });
    await expect(picture).toBeVisible();
    await expect.poll(() => cms.proportions(picture)).toBeCloseTo(1200 / 630, 2);
    await expect(preview.getByRole("heading", { name: "Book Your Meeting" })).toBeVisible();
    await picture.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath("preview-meeting.png") });
    await cms.save(page);

    const contentDir = cms.writeToDisk(await cms.filesWritten(page));
    const result = checkContentDirectory(contentDir);
    expect(result.errors, formatReport(result).join("\n")).toEqual([]);
    const solutions = cms.yamlOf<{ offerings: { subtitle: string; highlights: string[] }[] }>(
      contentDir,
      "solutions",
    );
    expect(solutions.offerings[0]!.subtitle).toBe(NEW_SUBTITLE);
    expect(solutions.offerings[0]!.highlights.at(-1)).toBe(NEW_HIGHLIGHT);
    const expo = cms.yamlOf<{ startDate: string; perks: { title: string }[] }>(contentDir, "expo");
    expect(expo.startDate).toBe("2025-05-19");
    expect(expo.perks.slice(0, 2).map((perk) => perk.title)).toEqual(PERKS_AFTER_MOVE);
    const meeting = cms.yamlOf<{ image: string; imageAlt: string }>(contentDir, "meeting");
    expect(meeting).toMatchObject({ image: "./images/booth-team.png", imageAlt: NEW_PICTURE_ALT });
    expect(fs.readFileSync(path.join(contentDir, meeting.image))).toEqual(NEW_PICTURE);
    editedContent = contentDir;
  });

  test("the site built from the files the CMS wrote shows the new subtitle, highlight, perk order and picture", async ({
    page,
    backend,
  }) => {
    // A real gatsby build (2–3 minutes on a 2-core machine); its time is printed, not asserted.
    test.setTimeout(15 * 60_000);
    if (!editedContent) throw new Error("The editing test above wrote no content.");
    await visitContentBuild(editedContent, backend.url, async (siteUrl) => {
      await page.goto(`${siteUrl}/`);
      const firstCard = page.locator("#solutions article").first();
      await expect(firstCard.locator("header p")).toHaveText(NEW_SUBTITLE);
      await expect(firstCard.getByRole("listitem").last()).toHaveText(NEW_HIGHLIGHT);
      const perks = await page.locator("#expo li h4").allTextContents();
      expect(perks.slice(0, 2)).toEqual(PERKS_AFTER_MOVE);
      const picture = page.locator("#contact-form").getByRole("img", { name: NEW_PICTURE_ALT });
      await picture.scrollIntoViewIfNeeded();
      await expect(picture).toBeVisible();
      await expect.poll(() => cms.proportions(picture)).toBeCloseTo(1200 / 630, 2);
    });
  });
});

test("every section's preview is its part of the page, with what it shows from other files; an empty required field and a bad e-mail address are refused with a plain sentence, and nothing is written", async ({
  page,
}) => {
  await cms.openCmsOnCheckout(page);
  const preview = cms.previewPane(page);
  const sections: [RegExp, Locator][] = [
    [/Company facts/, preview.locator("footer").getByRole("link", { name: "MobilityDR" })],
    [/First screen/, preview.locator("#hero-heading")],
    [/Consulting/, preview.locator("#consulting-heading")],
    [/Contact details/, preview.getByRole("heading", { name: "Contact Information" })],
    [/Footer/, preview.locator("footer address")],
  ];
  for (const [label, landmark] of sections) {
    await cms.openSection(page, label);
    await expect(landmark).toBeVisible();
    if (label.source === "First screen")
      await page.screenshot({ path: test.info().outputPath("preview-hero.png") });
    // Back to the list of sections (the CMS routes by the address's hash).
    await page.evaluate(() => void (location.hash = "#/collections/page"));
    await expect(page.getByRole("row", { name: "Platform solutions" })).toBeVisible();
  }

  const before = await cms.filesWritten(page);
  await cms.openSection(page, /Contact details/);
  await cms.field(page, "Email").getByRole("textbox").fill("meetings@meridianmobility");
  await cms.field(page, "Phone").getByRole("textbox").fill("");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(cms.field(page, "Email")).toContainText(
    "Expected an e-mail address such as meetings@example.com.",
  );
  await expect(cms.field(page, "Phone")).toContainText(/required/i);
  expect(await cms.filesWritten(page)).toEqual(before);
});
