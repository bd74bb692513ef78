import type { GatsbySSR } from "gatsby";
import { withoutHeadMarkers } from "./build-time/head-elements";

// The pages' Head is rendered only here, into the HTML: see build-time/head-elements.ts.
export const onPreRenderHTML: GatsbySSR["onPreRenderHTML"] = ({ getHeadComponents, replaceHeadComponents }) => {
  replaceHeadComponents(withoutHeadMarkers(getHeadComponents()));
};
