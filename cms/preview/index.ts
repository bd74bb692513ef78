/**
 * The CMS preview bundle (built by cms/preview-bundle.ts, served only at /admin/): registers the
 * page's stylesheet and one preview template per content file with Sveltia CMS. It runs after the
 * CMS script, whose globals it uses; the page never loads it.
 */
import "../../src/styles/tokens.css";
import "../../src/styles/global.css";
import { previewTemplate, type CmsGlobals } from "./bridge";
import { CONTENT_FILE_NAMES } from "./content";
import { setGlyphAtlasUrl } from "./drawn-pictures";

type Cms = {
  registerPreviewStyle(style: string): void;
  registerPreviewTemplate(name: string, component: unknown): void;
};

/** The collection of cms/config.ts that holds one entry per content file. */
const COLLECTION = "page";

declare global {
  interface Window {
    CMS?: Cms;
    createClass?: CmsGlobals["createClass"];
    h?: CmsGlobals["h"];
  }
}

function cmsGlobals(): { cms: Cms; globals: CmsGlobals } {
  const { CMS: cms, createClass, h } = window;
  if (!cms || !createClass || !h)
    throw new Error(
      "The CMS preview needs Sveltia CMS's globals (CMS, createClass, h): load its script first.",
    );
  return { cms, globals: { createClass, h } };
}

const { cms, globals } = cmsGlobals();
// The page's CSS, built beside this script; the script tag names it (cms/admin-files.ts).
const stylesheet = document.currentScript?.dataset.stylesheet;
if (stylesheet) cms.registerPreviewStyle(stylesheet);
// The glyphs the pictures are drawn with, served beside this script (cms/admin-files.ts).
setGlyphAtlasUrl(document.currentScript?.dataset.glyphs);
for (const name of CONTENT_FILE_NAMES)
  cms.registerPreviewTemplate(name, previewTemplate(name, globals, COLLECTION));
