/**
 * The CMS preview: registers the page's stylesheet and one template per content file with Sveltia
 * CMS. Each template is a `createClass` class (Sveltia's React 19) rendering an empty <div> in
 * which a root of the site's React 18 renders the section components exactly as on the page.
 */
import "../../src/styles/tokens.css";
import "../../src/styles/global.css";
import React, { Component } from "react";
import type { ErrorInfo, ReactNode } from "react";
import type SveltiaCms from "@sveltia/cms";
import type { CustomPreviewTemplate, CustomPreviewTemplateProps } from "@sveltia/cms";
import { createRoot, type Root } from "react-dom/client";
import type { ContentFileName, PageContent } from "./content";
import { drawnPictures, setGlyphAtlasUrl, type DrawnPictures } from "./preview-pictures";
import { SECTION_PREVIEWS } from "./sections";

/** Immutable.js values as the CMS passes them: only what is read here. */
type ImmutableEntry = { getIn(path: readonly string[]): { toJS(): unknown } | undefined };

declare global {
  interface Window {
    CMS?: typeof SveltiaCms;
    createClass?: (spec: object) => unknown;
    h?: (type: string, props: object) => unknown;
  }
}

type Bridge = {
  props: CustomPreviewTemplateProps;
  container: HTMLElement | null;
  root: Root | null;
  saved: Partial<PageContent>;
  retry: ReturnType<typeof setTimeout> | undefined;
  retries: number;
  drawn: DrawnPictures;
  update(): void;
};

/** The collection of cms/config.ts that holds one entry per content file. */
const COLLECTION = "page";

/** A picture the frame can show now: the CMS resolves stored pictures to blob: URLs (at first, their path). */
const LOADABLE_PICTURE = /^(blob:|data:|https?:)/;
const PICTURE_RETRY_MS = 150;
const PICTURE_RETRIES = 40;

/** An entry's data; the form is the schema (every field required), so it has the file's shape. */
function fileData<Name extends ContentFileName>(entry: unknown): PageContent[Name] | undefined {
  const getIn = (entry as Partial<ImmutableEntry> | null)?.getIn;
  const data = typeof getIn === "function" ? getIn.call(entry, ["data"])?.toJS() : undefined;
  return typeof data === "object" && data !== null ? (data as PageContent[Name]) : undefined;
}

class PreviewBoundary extends Component<{ children: ReactNode }, { problem: string | undefined }> {
  override state = { problem: undefined as string | undefined };

  static getDerivedStateFromError(error: unknown) {
    return { problem: error instanceof Error ? error.message : String(error) };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.warn("The preview could not show this section:", error, info.componentStack);
  }

  override render() {
    return this.state.problem ? (
      <p role="alert">
        The preview cannot show this section yet ({this.state.problem}). Saving is not affected.
      </p>
    ) : (
      this.props.children
    );
  }
}

/** The preview template of one content file (registered under the file's name). */
function previewTemplate(fileName: ContentFileName, h: NonNullable<Window["h"]>): object {
  const section = SECTION_PREVIEWS[fileName];
  return {
    componentDidMount(this: Bridge) {
      this.saved = {};
      this.retries = 0;
      // The drawn pictures need the glyph atlas: the section is drawn again when it arrives.
      this.drawn = drawnPictures(() => this.update());
      if (!this.container) return;
      this.root = createRoot(this.container);
      this.update();
      // What the section shows from other files: as saved (the CMS reads them from the repository).
      for (const other of section.needs.filter((name) => name !== fileName)) {
        this.props
          .getCollection(COLLECTION, other)
          .then((entry) => {
            const data = fileData<typeof other>(entry);
            if (data) this.saved = { ...this.saved, [other]: data };
            this.update();
          })
          .catch((error: unknown) =>
            console.warn(`The preview could not read content/${other}.yaml:`, error),
          );
      }
    },
    componentDidUpdate(this: Bridge) {
      this.update();
    },
    componentWillUnmount(this: Bridge) {
      clearTimeout(this.retry);
      const root = this.root;
      this.root = null;
      // Not while Sveltia's React is unmounting: the site's React leaves the frame on its next turn.
      if (root) setTimeout(() => root.unmount());
    },
    update(this: Bridge) {
      if (!this.root) return;
      clearTimeout(this.retry);
      let waitingForPicture = false;
      const pictureUrl = (path: string) => {
        // A picture uploaded but not saved yet is its blob: URL in the draft; a stored one is a path.
        if (LOADABLE_PICTURE.test(path)) return path;
        const url = this.props.getAsset(path)?.toString();
        if (url && LOADABLE_PICTURE.test(url)) return url;
        waitingForPicture = true;
        return undefined;
      };
      const files = { ...this.saved, [fileName]: fileData<typeof fileName>(this.props.entry) };
      this.root.render(
        <PreviewBoundary>{section.render(files, pictureUrl, this.drawn)}</PreviewBoundary>,
      );
      if (!waitingForPicture) this.retries = 0;
      else if (this.retries++ < PICTURE_RETRIES)
        this.retry = setTimeout(() => this.update(), PICTURE_RETRY_MS);
    },
    render(this: Bridge) {
      return h("div", {
        ref: (element: HTMLElement | null) => {
          this.container = element;
        },
      });
    },
  };
}

const { CMS: cms, createClass, h } = window;
if (!cms || !createClass || !h)
  throw new Error(
    "The CMS preview needs Sveltia CMS's globals (CMS, createClass, h): load its script first.",
  );
// The page's CSS and the glyphs of the drawn pictures, served beside this script (cms/admin-files.ts).
const { stylesheet, glyphs } = document.currentScript?.dataset ?? {};
if (stylesheet) cms.registerPreviewStyle(stylesheet);
setGlyphAtlasUrl(glyphs);
for (const name of Object.keys(SECTION_PREVIEWS) as ContentFileName[])
  cms.registerPreviewTemplate(name, createClass(previewTemplate(name, h)) as CustomPreviewTemplate);
