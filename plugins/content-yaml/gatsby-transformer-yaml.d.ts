// gatsby-transformer-yaml ships no types; these are the two hooks this plugin delegates to.
declare module "gatsby-transformer-yaml/gatsby-node" {
  import type { CreateNodeArgs, PluginOptions } from "gatsby";
  export function shouldOnCreateNode(args: { node: Record<string, unknown> }): boolean;
  export function onCreateNode(args: CreateNodeArgs, pluginOptions: PluginOptions): Promise<void>;
}
