/**
 * content/*.yaml from disk to GraphQL nodes, in one place: the content pipeline
 * (build-time/content/pipeline.ts) in front of gatsby-transformer-yaml.
 *
 * - onPreBootstrap: every file is checked before sourcing; `gatsby build` stops with one line per
 *   problem, `gatsby develop` prints them and keeps running. Then the pictures drawn from the
 *   content are drawn (build-time/pictures), and drawn again after a save that changes them.
 * - onCreateNode: each YAML file still becomes its node through gatsby-transformer-yaml (same
 *   options), but a content file is handed to it as the data the check read (as JSON, which YAML
 *   reads unchanged), checked once per saved text. In `gatsby develop` a save with errors is
 *   handed on as the file's last version without errors: marketing staff see one plain line per
 *   problem in the terminal and the preview keeps the whole page, not a parser's stack trace.
 *
 * The nodes stay owned by this plugin ("content-yaml"): Gatsby keeps a node type's owner in
 * `.cache` even when it clears the cache for a changed configuration (docs/troubleshooting.md).
 */
import path from "node:path";
import type { GatsbyNode, Node } from "gatsby";
import * as yamlTransformer from "gatsby-transformer-yaml/gatsby-node";
import { writeBookingSchedule } from "../../build-time/booking-schedule";
import { createContentPipeline } from "../../build-time/content/pipeline";
import { withDrawnPictures } from "../../build-time/pictures/drawn-pictures";
import { createPictureDrawer } from "../../build-time/pictures/gatsby-pictures";

const CONTENT_DIR = path.resolve("content");
const contentPipeline = createContentPipeline(CONTENT_DIR);
// The sharing card and the meeting illustration, drawn from the checked content (build-time/pictures).
const pictures = createPictureDrawer((name) => contentPipeline.lastGoodData(name));
// /book/schedule.json, for the book-meeting Edge Function (docs/booking.md): written at start-up,
// again after each save (gatsby develop serves public/), and into the finished build.
const writeSchedule = () => writeBookingSchedule("public", contentPipeline.lastGoodData);

export const onPreBootstrap: GatsbyNode["onPreBootstrap"] = async ({ reporter }) => {
  contentPipeline.checkAll(reporter);
  writeSchedule();
  await pictures.draw(reporter);
};

export const onPostBuild: GatsbyNode["onPostBuild"] = writeSchedule;

export const shouldOnCreateNode: GatsbyNode["shouldOnCreateNode"] = (args) =>
  yamlTransformer.shouldOnCreateNode(args);

export const onCreateNode: GatsbyNode["onCreateNode"] = async (args, pluginOptions) => {
  const { node, loadNodeContent, reporter } = args;
  const absolutePath = (node as Node & { absolutePath?: unknown }).absolutePath;
  if (typeof absolutePath !== "string") return yamlTransformer.onCreateNode(args, pluginOptions);
  const text = contentPipeline.textFor(absolutePath, await loadNodeContent(node), reporter);
  if (text === undefined) return undefined;
  pictures.drawSoon(reporter);
  writeSchedule();
  // A picture field left empty gets the picture drawn from the content (build-time/pictures).
  const data =
    path.dirname(absolutePath) === CONTENT_DIR
      ? withDrawnPictures(absolutePath, text, CONTENT_DIR)
      : text;
  return yamlTransformer.onCreateNode(
    { ...args, loadNodeContent: async () => data },
    pluginOptions,
  );
};
