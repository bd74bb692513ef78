import fs from "node:fs";
import path from "node:path";
import type { Locator, Page } from "@playwright/test";
import { MESSAGE_LINES } from "../../src/lib/meeting-request";
import { TOAST_LIBRARY_WORDS } from "../../src/test-support/toast-library-words";
import { PUBLIC_DIR } from "../../tools/lib/test-build";
import { content, pictureDescriptions, squish } from "../support/content";
import { expect, test } from "../support/fixtures";
import { holdScripts } from "../support/page-scripts";

const CTA_NAMES = [
  content.hero.ctaLabel,
  ...content.solutions.offerings.map(
    (offering) =>
      `${content.solutions.ctaLabel} ${content.solutions.ctaAboutWord} ${offering.name}`,
  ),
  content.consulting.ctaLabel,
  content.expo.ctaLabel,
];

/** The form section may keep a small gap above it (scroll-margin-top), never more than this. */
const MAX_TOP_GAP = 48;

function sectionTop(page: Page): Promise<number> {
  return page.locator("#contact-form").evaluate((el) => Math.round(el.getBoundingClientRect().top));
}

/** True when every element comes after the previous one in document order. */
async function inDocumentOrder(locators: Locator[]): Promise<boolean> {
  const handles = await Promise.all(locators.map((locator) => locator.elementHandle()));
  const page = locators[0]!.page();
  return page.evaluate(
    (elements) =>
      elements.every(
        (element, index) =>
          index === 0 ||
          Boolean(
            elements[index - 1]!.compareDocumentPosition(element) &
            Node.DOCUMENT_POSITION_FOLLOWING,
          ),
      ),
    handles,
  );
}

/** Scrolls through the page the way a reader would, so lazy images load. */
async function readWholePage(page: Page) {
  await page.waitForLoadState("networkidle"); // hydrated: lazy images get their sources
  await page.evaluate(async () => {
    for (let y = 0; y < document.documentElement.scrollHeight; y += window.innerHeight / 2) {
      window.scrollTo(0, y);
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 30)));
    }
    window.scrollTo(0, 0);
  });
}

test.describe("landing page", () => {
  test("a normal visit: every section present, in order, with no errors or CSP violations", async ({
    page,
  }) => {
    const response = await page.goto("/");
    expect(response?.status()).toBe(200);
    await expect(page).toHaveTitle(new RegExp(content.site.companyName));

    const h1 = page.getByRole("heading", { level: 1 });
    await expect(h1).toHaveCount(1);
    await expect(h1).toHaveText(content.hero.headline);

    const main = page.getByRole("main");
    await expect(main).toHaveAttribute("id", "main");
    const heroCta = page.getByRole("link", { name: content.hero.ctaLabel, exact: true });
    const solutions = page.getByRole("heading", { level: 2, name: content.solutions.heading });
    const cards = content.solutions.offerings.map((offering) =>
      page.getByRole("heading", { level: 3, name: offering.name, exact: true }),
    );
    const consultingCta = page.getByRole("link", { name: content.consulting.ctaLabel });
    const expo = page.getByRole("heading", { level: 2, name: content.expo.heading });
    const expoCta = page.getByRole("link", { name: content.expo.ctaLabel });
    const formSection = page.locator("section#contact-form");
    const footer = page.getByRole("contentinfo");

    for (const locator of [
      heroCta,
      solutions,
      ...cards,
      consultingCta,
      expo,
      expoCta,
      formSection,
      footer,
    ]) {
      await expect(locator).toHaveCount(1);
    }
    expect(
      await inDocumentOrder([
        h1,
        heroCta,
        solutions,
        ...cards,
        consultingCta,
        expo,
        expoCta,
        formSection,
        footer,
      ]),
    ).toBe(true);

    // Each offering card: name, subtitle and its own "Learn More".
    for (const offering of content.solutions.offerings) {
      const card = page
        .getByRole("article")
        .filter({ has: page.getByRole("heading", { name: offering.name, exact: true }) });
      await expect(card).toContainText(offering.subtitle);
      await expect(
        card.getByRole("link", { name: new RegExp(`^${content.solutions.ctaLabel}`) }),
      ).toHaveCount(1);
    }

    // The form section as the spec lists it.
    await expect(formSection.getByRole("heading", { level: 2 })).toHaveText(
      content.meeting.heading,
    );
    await expect(formSection).toContainText(content.meeting.subtitle);
    await expect(
      formSection.getByRole("img", { name: squish(pictureDescriptions.meeting) }),
    ).toHaveCount(1);
    await expect(
      formSection.getByRole("heading", { name: content.meeting.formTitle }),
    ).toBeVisible();
    await expect(
      formSection.getByRole("heading", { name: content.meeting.contactTitle }),
    ).toBeVisible();
    const contactCard = formSection.getByRole("region", { name: content.meeting.contactTitle });
    await expect(contactCard).toContainText(content.contact.phone);
    await expect(contactCard).toContainText(content.contact.email);
    await expect(contactCard).toContainText(content.contact.booth);
    expect(
      await inDocumentOrder([
        formSection.getByRole("heading", { name: content.meeting.formTitle }),
        page.locator("form"),
      ]),
    ).toBe(true);

    // The footer: company history and its link columns.
    await expect(footer).toContainText(String(content.site.history.established));
    for (const { label } of content.footer.legalLinks)
      await expect(footer.getByRole("link", { name: label, exact: true })).toHaveCount(1);

    // Read to the end: lazy images load without errors, the illustration really shows.
    await readWholePage(page);
    const illustration = formSection.getByRole("img", {
      name: squish(pictureDescriptions.meeting),
    });
    await illustration.scrollIntoViewIfNeeded();
    await expect
      .poll(() =>
        illustration.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth),
      )
      .toBeGreaterThan(0);
  });

  test("the built HTML holds the whole page without JavaScript", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(content.hero.headline);
    for (const offering of content.solutions.offerings) {
      await expect(page.getByRole("heading", { name: offering.name, exact: true })).toBeVisible();
    }
    await expect(page.getByLabel(content.meeting.form.fullNameLabel)).toBeVisible();
    await expect(
      page.getByRole("button", { name: content.meeting.form.submitLabel }),
    ).toBeVisible();
    // The illustration is there too: a plain <picture>, so it needs no script.
    await expect(
      page.getByRole("img", { name: squish(pictureDescriptions.meeting) }),
    ).toBeVisible();
    await context.close();
  });

  test("one h1, no skipped heading levels, and the landmarks a screen reader lists", async ({
    page,
  }) => {
    await page.goto("/");
    const levels = await page
      .locator("h1, h2, h3, h4, h5, h6")
      .evaluateAll((headings) =>
        headings
          .filter((heading) => heading.closest("[aria-hidden=true]") === null)
          .map((heading) => Number(heading.tagName[1])),
      );
    expect(levels[0]).toBe(1);
    expect(levels.filter((level) => level === 1)).toHaveLength(1);
    const skips = levels.flatMap((level, index) =>
      index > 0 && level > levels[index - 1]! + 1 ? [`h${levels[index - 1]} → h${level}`] : [],
    );
    expect(skips, "heading levels jump").toEqual([]);

    await expect(page.getByRole("banner")).toHaveCount(1);
    await expect(page.getByRole("main")).toHaveCount(1);
    await expect(page.getByRole("contentinfo")).toHaveCount(1);
  });

  test("the skip link is the first Tab stop and moves focus to the main content", async ({
    page,
  }) => {
    await page.goto("/");
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: content.site.skipLinkLabel });
    await expect(skip).toBeFocused();
    await expect(skip).toBeVisible();
    await expect(skip).toBeInViewport();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("main")).toBeFocused();
    // The next Tab continues inside main: the hero's call to action.
    await page.keyboard.press("Tab");
    await expect(
      page.getByRole("link", { name: content.hero.ctaLabel, exact: true }),
    ).toBeFocused();
  });

  for (const name of CTA_NAMES) {
    test(`"${name}" scrolls the meeting form into view and moves focus to it`, async ({ page }) => {
      await page.goto("/");
      const cta = page.getByRole("link", { name, exact: true });
      await cta.scrollIntoViewIfNeeded();
      await cta.click();
      const section = page.locator("#contact-form");
      await expect(
        section.getByRole("heading", { name: content.meeting.heading }),
      ).toBeInViewport();
      await expect
        .poll(() => sectionTop(page), {
          message: "the form section scrolled to the top of the window",
        })
        .toBeLessThanOrEqual(MAX_TOP_GAP);
      expect(await sectionTop(page)).toBeGreaterThanOrEqual(-1);
      await expect
        .poll(() => section.evaluate((el) => el.contains(document.activeElement)), {
          message: "focus moved into the form section",
        })
        .toBe(true);
      // The next Tab goes into the form, not back to where the visitor was.
      await page.keyboard.press("Tab");
      await expect(page.getByLabel(content.meeting.form.fullNameLabel)).toBeFocused();
    });
  }

  test("a call to action tapped before the page's script runs still brings focus to the form", async ({
    page,
  }) => {
    const pageScript = await holdScripts(page, /\/page-boot-[^/]+\.js$/);
    await page.goto("/", { waitUntil: "domcontentloaded" });
    await page.getByRole("link", { name: content.hero.ctaLabel, exact: true }).click();
    const section = page.locator("#contact-form");
    await expect
      .poll(() => section.evaluate((el) => el.contains(document.activeElement)), {
        message: "focus moved into the form section",
      })
      .toBe(true);
    await page.keyboard.press("Tab");
    await expect(page.getByLabel(content.meeting.form.fullNameLabel)).toBeFocused();
    pageScript.release();
  });

  test("calls to action scroll smoothly, and jump when the visitor prefers reduced motion", async ({
    browser,
    baseURL,
  }) => {
    for (const reducedMotion of ["no-preference", "reduce"] as const) {
      const context = await browser.newContext({ baseURL, reducedMotion });
      const page = await context.newPage();
      await page.goto("/");
      // Record the scroll position on every frame from the click on.
      await page.evaluate(() => {
        const samples: number[] = [];
        (window as unknown as { __scrollSamples: number[] }).__scrollSamples = samples;
        const sample = () => {
          samples.push(Math.round(window.scrollY));
          if (samples.length < 600) requestAnimationFrame(sample);
        };
        requestAnimationFrame(sample);
      });
      await page.getByRole("link", { name: content.hero.ctaLabel, exact: true }).click();
      await expect.poll(() => sectionTop(page)).toBeLessThanOrEqual(MAX_TOP_GAP);
      await page.waitForTimeout(300);
      const samples = await page.evaluate(
        () => (window as unknown as { __scrollSamples: number[] }).__scrollSamples,
      );
      const start = samples[0]!;
      const end = samples[samples.length - 1]!;
      const between = new Set(samples.filter((y) => y > start && y < end));
      if (reducedMotion === "reduce")
        expect(
          between.size,
          `intermediate scroll positions with reduced motion: ${[...between].join(", ")}`,
        ).toBe(0);
      else
        expect(
          between.size,
          "a smooth scroll passes through intermediate positions",
        ).toBeGreaterThan(1);
      await context.close();
    }
  });
});

/** Every text of content/ of two words or more (single words like "Resources" occur in library code), except links and paths. */
function contentTexts(): string[] {
  const leaves = (value: unknown): string[] => {
    if (typeof value === "string") return [squish(value)];
    if (Array.isArray(value)) return value.flatMap(leaves);
    if (value && typeof value === "object") return Object.values(value).flatMap(leaves);
    return [];
  };
  // The stored message's line labels are code on purpose (src/lib/meeting-request.ts: MESSAGE_LINES).
  const recordFormat = new Set<string>(
    Object.values(MESSAGE_LINES).flatMap((line) => [line.label, line.empty]),
  );
  return leaves(content).filter(
    (text) =>
      text.includes(" ") &&
      !/^(?:#|\/|\.\/|https?:|mailto:|tel:)/.test(text) &&
      !recordFormat.has(text) &&
      !TOAST_LIBRARY_WORDS.has(text),
  );
}

/**
 * The scripts of the current build: the named chunks webpack lists, and the lazy chunks its
 * runtime can load. (Gatsby leaves the scripts of earlier builds in public/.)
 */
function currentScripts(): string[] {
  type Stats = { namedChunkGroups: Record<string, { assets: Array<{ name: string }> }> };
  const stats = JSON.parse(
    fs.readFileSync(path.join(PUBLIC_DIR, "webpack.stats.json"), "utf8"),
  ) as Stats;
  const named = [
    ...new Set(
      Object.values(stats.namedChunkGroups).flatMap((group) =>
        group.assets.map((asset) => asset.name),
      ),
    ),
  ].filter((name) => name.endsWith(".js"));
  const runtime = named.find((name) => name.startsWith("webpack-runtime-"));
  if (!runtime) throw new Error("no webpack runtime in public/webpack.stats.json");
  const runtimeCode = fs.readFileSync(path.join(PUBLIC_DIR, runtime), "utf8");
  const lazy = fs
    .readdirSync(PUBLIC_DIR)
    .filter(
      (name) =>
        name.endsWith(".js") &&
        !named.includes(name) &&
        runtimeCode.includes(`"${name.slice(name.lastIndexOf("-") + 1, -".js".length)}"`),
    );
  return [...named, ...lazy];
}

test("no visitor-facing words are compiled into the JavaScript: they arrive with the page's data", () => {
  const scripts = currentScripts();
  expect(scripts.length).toBeGreaterThan(4); // runtime, framework, app, two pages, lazy chunks
  const expoYear = content.expo.startDate.slice(0, 4);
  const facts = [
    new RegExp(`\\b${expoYear}\\b`),
    new RegExp(`\\b${content.contact.booth}\\b`),
    new RegExp(content.expo.eventName.split(" ")[0]!),
  ];
  const texts = contentTexts();
  const found: string[] = [];
  for (const name of scripts) {
    // As the words would appear in a string literal: \u escapes and escaped quotes undone.
    const code = fs
      .readFileSync(path.join(PUBLIC_DIR, name), "utf8")
      .replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
      .replace(/\\(['"])/g, "$1");
    for (const text of texts) if (code.includes(text)) found.push(`${name}: "${text}"`);
    for (const fact of facts) if (fact.test(code)) found.push(`${name}: ${fact}`);
  }
  expect(found).toEqual([]);
});
