/**
 * The content files as the preview receives them (the YAML data, shaped by the zod schemas of
 * build-time/content) turned into the props the section components get from the page query.
 * Only types come from the schemas: zod itself stays out of /admin/'s JavaScript.
 */
import type { IGatsbyImageData } from "gatsby-plugin-image";
import type { z } from "zod";
import type { consultingSchema } from "../../build-time/content/schemas/consulting";
import type { contactSchema } from "../../build-time/content/schemas/contact";
import type { expoSchema } from "../../build-time/content/schemas/expo";
import type { footerSchema } from "../../build-time/content/schemas/footer";
import type { heroSchema } from "../../build-time/content/schemas/hero";
import type { meetingSchema } from "../../build-time/content/schemas/meeting";
import type { siteSchema } from "../../build-time/content/schemas/site";
import type { solutionsSchema } from "../../build-time/content/schemas/solutions";

export type PageContent = {
  site: z.infer<typeof siteSchema>;
  hero: z.infer<typeof heroSchema>;
  solutions: z.infer<typeof solutionsSchema>;
  consulting: z.infer<typeof consultingSchema>;
  expo: z.infer<typeof expoSchema>;
  meeting: z.infer<typeof meetingSchema>;
  contact: z.infer<typeof contactSchema>;
  footer: z.infer<typeof footerSchema>;
};

export type ContentFileName = keyof PageContent;

export const CONTENT_FILE_NAMES: readonly ContentFileName[] = [
  "site",
  "hero",
  "solutions",
  "consulting",
  "expo",
  "meeting",
  "contact",
  "footer",
];

export function isContentFileName(name: string): name is ContentFileName {
  return (CONTENT_FILE_NAMES as readonly string[]).includes(name);
}

/** The address the browser can show a picture of the content at (an uploaded one included). */
export type PictureUrl = (path: string) => string | undefined;

/** Width and height only reserve space until the picture loads; the page's CSS sizes it (height: auto). */
function pictureData(src: string): IGatsbyImageData {
  return { layout: "constrained", width: 560, height: 420, images: { fallback: { src } } };
}

/**
 * The meeting section's props: the editor's own picture when one is chosen, else the drawn
 * illustration (`drawn`, undefined until it is drawn); `imageAlt` with its placeholders filled.
 */
export function meetingSection(
  meeting: PageContent["meeting"],
  pictureUrl: PictureUrl,
  drawn: { src: string | undefined; alt: string },
): Queries.MeetingSectionFragment {
  const src = meeting.image ? pictureUrl(meeting.image) : drawn.src;
  return {
    ...meeting,
    imageAlt: drawn.alt,
    image: { childImageSharp: src ? { gatsbyImageData: pictureData(src) } : null },
  };
}

export function platformNames(solutions: PageContent["solutions"]): string[] {
  return solutions.offerings.map((offering) => offering.name);
}
