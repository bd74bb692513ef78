/**
 * A Sveltia CMS preview template (Decap-compatible API) that renders the landing page's own
 * components with the site's React.
 *
 * Sveltia renders a template with the React it bundles (React 19), built from the globals it
 * documents for templates without a build step: `createClass` and `h`. The template here is one
 * such class that renders an empty <div> in the preview's frame and, once mounted, puts a root
 * of the site's React 18 in it: the section components run exactly as on the page, and Sveltia's
 * React never sees them. Each edit gives the class new props; it renders the section again.
 */
import React, { Component } from "react";
import type { ErrorInfo, ReactNode } from "react";
import { createRoot, type Root } from "react-dom/client";
import { isContentFileName, type ContentFileName, type PageContent } from "./content";
import { drawnPictures, type DrawnPictures } from "./drawn-pictures";
import { SECTION_PREVIEWS } from "./sections";

/** Immutable.js values as the CMS passes them: only what is read here. */
type ImmutableValue = { toJS(): unknown };
type ImmutableEntry = { getIn(path: readonly string[]): ImmutableValue | undefined };

/** The props Sveltia CMS gives a preview template (types/public.d.ts: CustomPreviewTemplateProps). */
export type CmsPreviewProps = {
  entry: ImmutableEntry;
  getAsset(path: string): { toString(): string } | undefined;
  getCollection(collectionName: string, slug?: string): Promise<unknown>;
};

/** The globals Sveltia CMS sets for templates written without a build step. */
export type CmsGlobals = {
  createClass(spec: object): unknown;
  h(type: string, props: object): unknown;
};

type BridgeInstance = {
  props: CmsPreviewProps;
  container: HTMLElement | null;
  root: Root | null;
  saved: Partial<PageContent>;
  retry: ReturnType<typeof setTimeout> | undefined;
  retries: number;
  drawn: DrawnPictures;
  update(): void;
};

/** The form is the schema (every field required, lists with their minimum), so its data has the file's shape. */
function fileData<Name extends ContentFileName>(
  value: ImmutableValue | undefined,
): PageContent[Name] | undefined {
  const data = value?.toJS();
  return typeof data === "object" && data !== null ? (data as PageContent[Name]) : undefined;
}

function isImmutableEntry(value: unknown): value is ImmutableEntry {
  return (
    typeof value === "object" &&
    value !== null &&
    "getIn" in value &&
    typeof value.getIn === "function"
  );
}

/** A picture the frame can show now: the CMS resolves stored pictures to blob: URLs (at first, their path). */
const LOADABLE_PICTURE = /^(blob:|data:|https?:)/;
const PICTURE_RETRY_MS = 150;
const PICTURE_RETRIES = 40;

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
export function previewTemplate(
  fileName: ContentFileName,
  cms: CmsGlobals,
  collectionName: string,
): unknown {
  const section = SECTION_PREVIEWS[fileName];
  const spec = {
    componentDidMount(this: BridgeInstance) {
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
          .getCollection(collectionName, other)
          .then((entry) => {
            const data =
              isImmutableEntry(entry) && isContentFileName(other)
                ? fileData<typeof other>(entry.getIn(["data"]))
                : undefined;
            if (data) this.saved = { ...this.saved, [other]: data };
            this.update();
          })
          .catch((error: unknown) =>
            console.warn(`The preview could not read content/${other}.yaml:`, error),
          );
      }
    },
    componentDidUpdate(this: BridgeInstance) {
      this.update();
    },
    componentWillUnmount(this: BridgeInstance) {
      clearTimeout(this.retry);
      const root = this.root;
      this.root = null;
      // Not while Sveltia's React is unmounting: the site's React leaves the frame on its next turn.
      if (root) setTimeout(() => root.unmount());
    },
    update(this: BridgeInstance) {
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
      const files = {
        ...this.saved,
        [fileName]: fileData<typeof fileName>(this.props.entry.getIn(["data"])),
      };
      this.root.render(
        <PreviewBoundary>{section.render(files, pictureUrl, this.drawn)}</PreviewBoundary>,
      );
      if (!waitingForPicture) this.retries = 0;
      else if (this.retries++ < PICTURE_RETRIES)
        this.retry = setTimeout(() => this.update(), PICTURE_RETRY_MS);
    },
    render(this: BridgeInstance) {
      return cms.h("div", {
        ref: (element: HTMLElement | null) => {
          this.container = element;
        },
      });
    },
  };
  return cms.createClass(spec);
}
