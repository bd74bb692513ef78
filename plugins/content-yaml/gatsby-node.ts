/**
 * gatsby-transformer-yaml, with the content check in front of it.
 *
 * Every YAML file still becomes its node through gatsby-transformer-yaml (same options). The
 * differences: a content file is handed to it as the data the content check validated (text
 * fields as typed, an unquoted date as YYYY-MM-DD; written as JSON, which YAML reads unchanged),
 * and in `gatsby develop` a saved file with errors is handed on as its last version without
 * errors (build-time/content/last-good-content.ts). Marketing staff then
 * see one plain line per problem in the terminal (printed by the site's gatsby-node.ts) and the
 * preview keeps the whole page, rather than a js-yaml stack trace and a page with a hole in it.
 */
import path from "node:path";
import type { GatsbyNode, Node } from "gatsby";
import * as yamlTransformer from "gatsby-transformer-yaml/gatsby-node";
import { createLastGoodContent } from "../../build-time/content/last-good-content";

const lastGoodContent = createLastGoodContent(path.resolve("content"));

export const shouldOnCreateNode: GatsbyNode["shouldOnCreateNode"] = (args) => yamlTransformer.shouldOnCreateNode(args);

export const onCreateNode: GatsbyNode["onCreateNode"] = async (args, pluginOptions) => {
  const { node, loadNodeContent } = args;
  const absolutePath = (node as Node & { absolutePath?: unknown }).absolutePath;
  if (typeof absolutePath !== "string") return yamlTransformer.onCreateNode(args, pluginOptions);
  const text = lastGoodContent.textFor(absolutePath, await loadNodeContent(node));
  if (text === undefined) return undefined;
  return yamlTransformer.onCreateNode({ ...args, loadNodeContent: async () => text }, pluginOptions);
};
