/** The not-found page: status 404 for any unknown path, its words from the content, the path logged, a way home, not indexed. */
import { content, escapeRegExp } from "../support/content";
import { expect, test } from "../support/fixtures";

const MISSING = "/some/missing/path";
const words = content.site.notFound;

test("an unknown path answers 404, shows the not-found page, logs the path, and leads back home", async ({
  page,
  diagnostics,
}) => {
  diagnostics.allowErrors(/status of 404/, new RegExp(`404 Error: .*${MISSING}`));
  const response = await page.goto(MISSING);
  expect(response?.status()).toBe(404);
  expect(response?.headers()["content-type"]).toContain("text/html");
  await expect(page.getByText(words.code, { exact: true })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(words.heading);
  await expect(page).toHaveTitle(new RegExp(`^${escapeRegExp(words.title)}`));
  await expect
    .poll(() =>
      diagnostics.errors.filter((line) => line.includes(`404 Error`) && line.includes(MISSING)),
    )
    .toHaveLength(1);
  expect(page.url()).toMatch(new RegExp(`${MISSING}$`)); // the visitor's address is left as typed

  const home = page.getByRole("link", { name: words.homeLinkLabel });
  await expect(home).toHaveAttribute("href", "/");
  await home.click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(content.hero.headline);
});

test("also for a path with a trailing slash, a file name and a query; search engines are told not to index it", async ({
  request,
}) => {
  for (const path of [
    MISSING,
    `${MISSING}/`,
    "/missing.html",
    "/static/nothing.png",
    "/%E2%98%83/?q=1",
  ]) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(404);
    const html = await response.text();
    expect(html, path).toContain(words.heading);
    expect(html, path).toMatch(/<meta name="robots" content="noindex[^"]*"/);
  }
});
