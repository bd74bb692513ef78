/**
 * The drawn pictures in the preview: the build's templates and glyph atlas (fetched once from
 * /admin/), as SVG data: URLs; the sections asking for one are drawn again when the atlas arrives.
 */
import {
  fillPlaceholders,
  pictureFacts,
  type PictureFacts,
} from "../../src/lib/pictures/picture-facts";
import type { GlyphAtlas } from "../../src/lib/pictures/glyphs";
import { meetingIllustrationSvg } from "../../src/lib/pictures/meeting-illustration";
import { shareCardSvg } from "../../src/lib/pictures/share-card";
import type { PageContent } from "./content";

let atlasUrl: string | undefined;
let atlas: GlyphAtlas | undefined;
let loading: Promise<void> | undefined;
const waiting = new Set<() => void>();

/** Where the atlas is served (the preview script's data-glyphs attribute). */
export function setGlyphAtlasUrl(url: string | undefined): void {
  atlasUrl = url;
}

function loadAtlas(onLoaded: () => void): GlyphAtlas | undefined {
  if (atlas) return atlas;
  waiting.add(onLoaded);
  if (!loading && atlasUrl) {
    loading = fetch(atlasUrl)
      .then((response) => {
        if (!response.ok) throw new Error(`${atlasUrl} answered ${response.status}`);
        return response.json() as Promise<GlyphAtlas>;
      })
      .then((loaded) => {
        atlas = loaded;
        for (const redraw of waiting) redraw();
        waiting.clear();
      })
      .catch((error: unknown) => console.warn("The preview cannot draw the pictures:", error));
  }
  return undefined;
}

type FactFiles = Partial<Pick<PageContent, "site" | "hero" | "expo" | "contact">>;

export function factsOf(files: FactFiles): PictureFacts | undefined {
  const { site, hero, expo, contact } = files;
  return site && hero && expo && contact ? pictureFacts({ site, hero, expo, contact }) : undefined;
}

export type DrawnPictures = {
  /** The drawn picture as a URL the preview can show; undefined until the atlas and the files are there. */
  shareCard(files: FactFiles): string | undefined;
  meetingIllustration(files: FactFiles): string | undefined;
  /** A picture description with its {placeholders} filled, as the build fills it. */
  describe(text: string, files: FactFiles): string;
};

/** Drawn pictures for one preview; `redraw` renders it again once the atlas has arrived. */
export function drawnPictures(redraw: () => void): DrawnPictures {
  const draw =
    (template: (facts: PictureFacts, atlas: GlyphAtlas) => string) => (files: FactFiles) => {
      const facts = factsOf(files);
      const loaded = facts ? loadAtlas(redraw) : undefined;
      if (!facts || !loaded) return undefined;
      return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(template(facts, loaded))}`;
    };
  return {
    shareCard: draw(shareCardSvg),
    meetingIllustration: draw(meetingIllustrationSvg),
    describe: (text, files) => {
      const facts = factsOf(files);
      return facts ? fillPlaceholders(text, facts) : text;
    },
  };
}
