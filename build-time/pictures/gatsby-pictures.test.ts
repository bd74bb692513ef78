/**
 * The drawn pictures in Gatsby's life cycle: drawn before sourcing from the checked content,
 * drawn again (in develop) after a save that changes a drawn fact and not after one that does
 * not. The descriptions' placeholders, filled from the content nodes by pictureDescriptionResolvers:
 * src/lib/pictures/picture-facts.test.ts (the filling) and e2e/tests/pictures.spec.ts (the built
 * page's alt texts).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { drawnLines } from "../../src/lib/pictures/draw-text";
import { createPictureDrawer } from "./gatsby-pictures";

const SITE = { companyName: "Meridian Mobility Systems", shortName: "Meridian Mobility" };
const HERO = { headline: "Microtransit that pays for itself" };
const CONTACT = { labels: { booth: "Booth" } };
const expo = (booth: string) => ({
  eventName: "CTAA Expo 2026",
  booth,
  startDate: "2026-05-17",
  endDate: "2026-05-20",
  venue: { city: "Palm Springs", region: "CA" },
});

const reporter = { info: jest.fn(), warn: jest.fn() };
let dir = "";
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "drawn-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const cardLines = () => drawnLines(fs.readFileSync(path.join(dir, "share-card.svg"), "utf8"));

it("draws from the checked content, again after a save that changes a drawn fact, not after one that does not", async () => {
  let booth = "713";
  const files: Record<string, unknown> = { site: SITE, hero: HERO, contact: CONTACT };
  const drawer = createPictureDrawer(
    (name) =>
      name === "expo" ? expo(booth) : (files[name] as Record<string, unknown> | undefined),
    dir,
  );
  await drawer.draw(reporter);
  expect(cardLines()[0]).toBe("CTAA Expo 2026 · Booth #713");
  const drawnAt = fs.statSync(path.join(dir, "share-card.png")).mtimeMs;

  drawer.drawSoon(reporter);
  await new Promise((resolve) => setTimeout(resolve, 400));
  expect(fs.statSync(path.join(dir, "share-card.png")).mtimeMs).toBe(drawnAt);

  booth = "512";
  drawer.drawSoon(reporter);
  for (let waited = 0; waited < 10_000 && cardLines()[0]?.endsWith("#713"); waited += 100)
    await new Promise((resolve) => setTimeout(resolve, 100));
  expect(cardLines()[0]).toBe("CTAA Expo 2026 · Booth #512");
}, 30_000);

it("leaves the folder empty (but there, for gatsby-source-filesystem) while a file it draws from has errors", async () => {
  const drawer = createPictureDrawer(
    (name) =>
      name === "hero" ? undefined : { site: SITE, contact: CONTACT, expo: expo("713") }[name],
    path.join(dir, "out"),
  );
  await drawer.draw(reporter);
  expect(fs.readdirSync(path.join(dir, "out"))).toEqual([]);
});
