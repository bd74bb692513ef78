/**
 * The landing page in Chromium as the spec lays it out: its sections in order with what the
 * content says (one h1, one main, banner and footer), the page without JavaScript, the skip link,
 * the calls to action (scroll, focus, reduced motion) and no horizontal scrolling at any width.
 * Heading levels that skip are axe's heading-order rule (accessibility.spec.ts).
 */
import type { Locator, Page } from "@playwright/test";
import { content, pictureDescriptions, squish } from "../support/content";
import { expect, test } from "../support/fixtures";
import { holdRequests, readWholePage } from "../support/page";

const { hero, solutions, consulting, expo, meeting, site } = content;

const CTA_NAMES = [
  hero.ctaLabel,
  ...solutions.offerings.map(
    (offering) => `${solutions.ctaLabel} ${solutions.ctaAboutWord} ${offering.name}`,
  ),
  consulting.ctaLabel,
  expo.ctaLabel,
];

/** The form section may keep a small gap above it (scroll-margin-top), never more than this. */
const MAX_TOP_GAP = 48;

const link = (page: Page, name: string) => page.getByRole("link", { name, exact: true });

function formSectionTop(page: Page): Promise<number> {
  return page.locator("#contact-form").evaluate((el) => Math.round(el.getBoundingClientRect().top));
}

/** Checks that the elements come in this order in the document. */
async function expectInDocumentOrder(locators: Locator[]): Promise<void> {
  const places = await Promise.all(
    locators.map((locator) =>
      locator.evaluate((element) => [...document.querySelectorAll("*")].indexOf(element)),
    ),
  );
  expect(places).toEqual([...places].sort((a, b) => a - b));
}

/** Focus is in the form section, and the next Tab goes to its first field. */
async function expectFocusInForm(page: Page): Promise<void> {
  const inForm = () =>
    page.locator("#contact-form").evaluate((el) => el.contains(document.activeElement));
  await expect.poll(inForm, { message: "focus moved into the form section" }).toBe(true);
  await page.keyboard.press("Tab");
  await expect(page.getByLabel(meeting.form.fullNameLabel)).toBeFocused();
}

test("a normal visit: every section present, in order, with what the content says", async ({
  page,
}) => {
  const response = await page.goto("/");
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle(new RegExp(site.companyName));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(hero.headline);
  await expect(page.getByRole("main")).toHaveAttribute("id", "main");

  const formSection = page.locator("section#contact-form");
  const pageFooter = page.getByRole("contentinfo");
  const sections = [
    page.getByRole("banner"),
    page.getByRole("heading", { level: 1 }),
    link(page, hero.ctaLabel),
    page.getByRole("heading", { level: 2, name: solutions.heading }),
    ...solutions.offerings.map((offering) =>
      page.getByRole("heading", { level: 3, name: offering.name, exact: true }),
    ),
    page.getByRole("link", { name: consulting.ctaLabel }),
    page.getByRole("heading", { level: 2, name: expo.heading }),
    page.getByRole("link", { name: expo.ctaLabel }),
    formSection,
    pageFooter,
  ];
  for (const locator of sections) await expect(locator).toHaveCount(1);
  await expectInDocumentOrder(sections);

  // The form section: its heading, the form's card before the contact card. Each card's "Learn
  // More" is a call to action below; the words of the cards, the contact card and the footer:
  // src/pages/index.test.tsx.
  await expect(formSection.getByRole("heading", { level: 2 })).toHaveText(meeting.heading);
  const formTitle = formSection.getByRole("heading", { name: meeting.formTitle });
  await expect(formTitle).toBeVisible();
  await expectInDocumentOrder([formTitle, formSection.locator("form")]);
  const contactCard = formSection.getByRole("region", { name: meeting.contactTitle });
  await expect(contactCard.getByRole("heading", { name: meeting.contactTitle })).toBeVisible();

  // Read to the end: lazy images load, the illustration really shows.
  await readWholePage(page);
  const illustration = formSection.getByRole("img", { name: squish(pictureDescriptions.meeting) });
  await illustration.scrollIntoViewIfNeeded();
  await expect
    .poll(() => illustration.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBeGreaterThan(0);
});

test("the built HTML holds the whole page without JavaScript", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(hero.headline);
  for (const offering of solutions.offerings)
    await expect(page.getByRole("heading", { name: offering.name, exact: true })).toBeVisible();
  await expect(page.getByLabel(meeting.form.fullNameLabel)).toBeVisible();
  await expect(page.getByRole("button", { name: meeting.form.submitLabel })).toBeVisible();
  // The illustration is a plain <picture>: it needs no script.
  await expect(page.getByRole("img", { name: squish(pictureDescriptions.meeting) })).toBeVisible();
  await context.close();
});

test("the skip link is the first Tab stop and moves focus to the main content", async ({
  page,
}) => {
  await page.goto("/");
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: site.skipLinkLabel });
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();
  await expect(skip).toBeInViewport();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("main")).toBeFocused();
  // The next Tab continues inside main: the hero's call to action.
  await page.keyboard.press("Tab");
  await expect(link(page, hero.ctaLabel)).toBeFocused();
});

for (const name of CTA_NAMES) {
  test(`"${name}" scrolls the meeting form into view and moves focus to it`, async ({ page }) => {
    await page.goto("/");
    await link(page, name).click();
    await expect(page.getByRole("heading", { name: meeting.heading })).toBeInViewport();
    await expect
      .poll(() => formSectionTop(page), { message: "the form section at the top of the window" })
      .toBeLessThanOrEqual(MAX_TOP_GAP);
    expect(await formSectionTop(page)).toBeGreaterThanOrEqual(-1);
    // The next Tab goes into the form, not back to where the visitor was.
    await expectFocusInForm(page);
  });
}

test("a call to action tapped before the page's script runs still brings focus to the form", async ({
  page,
}) => {
  const pageScript = await holdRequests(page, /\/page-boot-[^/]+\.js$/);
  await page.goto("/", { waitUntil: "domcontentloaded" });
  await link(page, hero.ctaLabel).click();
  await expectFocusInForm(page);
  pageScript.release();
});

for (const reducedMotion of ["no-preference", "reduce"] as const) {
  test(`a call to action ${reducedMotion === "reduce" ? "jumps when the visitor prefers reduced motion" : "scrolls smoothly"}`, async ({
    page,
  }) => {
    await page.emulateMedia({ reducedMotion });
    await page.goto("/");
    // Record the scroll position on every frame from the click on.
    await page.evaluate(() => {
      const samples: number[] = [];
      Object.assign(window, { __scrollSamples: samples });
      const sample = () => {
        samples.push(Math.round(window.scrollY));
        if (samples.length < 600) requestAnimationFrame(sample);
      };
      requestAnimationFrame(sample);
    });
    await link(page, hero.ctaLabel).click();
    await expect.poll(() => formSectionTop(page)).toBeLessThanOrEqual(MAX_TOP_GAP);
    await page.waitForTimeout(300);
    const samples = await page.evaluate(
      () => (window as unknown as { __scrollSamples: number[] }).__scrollSamples,
    );
    const [start, end] = [samples[0]!, samples.at(-1)!];
    const between = new Set(samples.filter((y) => y > start && y < end));
    if (reducedMotion === "reduce") expect([...between], "positions between").toEqual([]);
    else expect(between.size, "a smooth scroll passes positions between").toBeGreaterThan(1);
  });
}

test("no horizontal scrolling at any width from 360 to 1440 px", async ({ page }) => {
  await page.goto("/");
  await page.waitForLoadState("networkidle");
  const overflowing: string[] = [];
  for (const width of [360, 390, 414, 768, 1024, 1040, 1280, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    if (scrollWidth <= width) continue;
    const culprits = await page.evaluate(
      (limit) =>
        Array.from(document.querySelectorAll("body *"))
          .filter((element) => element.getBoundingClientRect().right > limit + 1)
          .slice(0, 3)
          .map(
            (element) =>
              `<${element.tagName.toLowerCase()}> "${element.textContent?.trim().slice(0, 40)}"`,
          ),
      width,
    );
    overflowing.push(`${width} px: the page is ${scrollWidth} px wide (${culprits.join(", ")})`);
  }
  expect(overflowing).toEqual([]);
});
