/**
 * content/*.yaml to GraphQL nodes: the content pipeline (build-time/content/pipeline.ts) in front
 * of gatsby-transformer-yaml, plus the pictures drawn from the content (build-time/pictures). The
 * nodes stay owned by this plugin: Gatsby keeps a type's owner in `.cache` (docs/troubleshooting.md).
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
