/**
 * What the CMS preview shows for each content file: the page's own section components, fed the
 * file being edited and, for what they show from other files, those files as saved.
 */
import React from "react";
import type { ReactElement } from "react";
import { ConsultingBlock } from "../../src/components/consulting-block";
import { ExpoSection } from "../../src/components/expo-section";
import { Hero } from "../../src/components/hero";
import { MeetingSection } from "../../src/components/meeting-section";
import { SiteFooter } from "../../src/components/site-footer";
import { SiteHeader } from "../../src/components/site-header";
import { SolutionsSection } from "../../src/components/solutions-section";
import * as solutionsStyles from "../../src/components/solutions-section.module.css";
import type { ContentFileName, PageContent, PictureUrl } from "./content";
import type { DrawnPictures } from "./preview-pictures";
import * as cardStyles from "./sharing-card-preview.module.css";

type Files = Partial<PageContent>;
type SectionPreview = (
  files: Files,
  pictureUrl: PictureUrl,
  drawn: DrawnPictures,
) => ReactElement | null;

/** The files the drawn pictures take their facts from (src/lib/pictures/picture-facts.ts). */
const PICTURE_FACT_FILES: readonly ContentFileName[] = ["site", "hero", "expo", "contact"];

function footer(files: Files): ReactElement | null {
  const { footer: words, site, contact, solutions } = files;
  if (!words || !site || !contact || !solutions) return null;
  return (
    <SiteFooter
      footer={words}
      site={site}
      contact={contact}
      platformNames={solutions.offerings.map((offering) => offering.name)}
      copyrightYear={String(new Date().getFullYear())}
    />
  );
}

function meeting(files: Files, pictureUrl: PictureUrl, drawn: DrawnPictures): ReactElement | null {
  const { meeting: content, contact } = files;
  if (!content || !contact) return null;
  // The editor's own picture when one is chosen, else the drawn one (undefined until it is drawn).
  const src = content.image ? pictureUrl(content.image) : drawn.meetingIllustration(files);
  // Width and height only reserve space until the picture loads; the page's CSS sizes it.
  const gatsbyImageData = src
    ? ({ layout: "constrained", width: 560, height: 420, images: { fallback: { src } } } as const)
    : undefined;
  const props: Queries.MeetingSectionFragment = {
    ...content,
    imageAlt: drawn.describe(content.imageAlt, files),
    image: { childImageSharp: gatsbyImageData ? { gatsbyImageData } : null },
  };
  return <MeetingSection meeting={props} contact={contact} />;
}

/**
 * The sharing card under a section's preview: not part of the page, but what LinkedIn, Slack
 * and e-mail show when the page is shared, so an editor sees it change with the event's facts.
 */
function sharingCard(
  files: Files,
  pictureUrl: PictureUrl,
  drawn: DrawnPictures,
): ReactElement | null {
  const { site } = files;
  if (!site) return null;
  // The editor's own picture, else the drawn card (undefined until it is drawn).
  const src = site.shareImage ? pictureUrl(site.shareImage) : drawn.shareCard(files);
  const alt = drawn.describe(site.shareImageAlt, files);
  return (
    <figure className={cardStyles.figure}>
      {src ? (
        <img className={cardStyles.card} src={src} width={1200} height={630} alt={alt} />
      ) : (
        <div className={cardStyles.card} role="img" aria-label={alt} />
      )}
      <figcaption className={cardStyles.caption}>
        {site.shareImage
          ? "Sharing card: your own picture (leave “Your own sharing picture” empty to use the drawn card)."
          : "Sharing card, as LinkedIn, Slack and e-mail show the page: drawn from the expo's name, booth, dates and city, the headline and the company name."}
      </figcaption>
    </figure>
  );
}

/** Sections in page order; each lists the files it needs, the edited one first. */
export const SECTION_PREVIEWS: Record<
  ContentFileName,
  { needs: readonly ContentFileName[]; render: SectionPreview }
> = {
  site: {
    needs: ["site", "contact", "footer", "solutions", "hero", "expo"],
    render: (files, pictureUrl, drawn) => {
      const { site, contact } = files;
      if (!site || !contact) return null;
      return (
        <>
          <SiteHeader site={site} booth={contact.booth} boothLabel={contact.labels.booth} />
          {footer(files)}
          {sharingCard(files, pictureUrl, drawn)}
        </>
      );
    },
  },
  hero: {
    needs: ["hero", ...PICTURE_FACT_FILES],
    render: (files, pictureUrl, drawn) =>
      files.hero ? (
        <>
          <Hero hero={files.hero} />
          {sharingCard(files, pictureUrl, drawn)}
        </>
      ) : null,
  },
  solutions: {
    needs: ["solutions", "consulting"],
    render: ({ solutions, consulting }) =>
      solutions && consulting ? (
        <SolutionsSection solutions={solutions} consulting={consulting} />
      ) : null,
  },
  consulting: {
    needs: ["consulting"],
    // On the page the block closes the Platform Solutions section: shown in that section's frame.
    render: ({ consulting }) =>
      consulting ? (
        <section className={solutionsStyles.section}>
          <div className={solutionsStyles.inner}>
            <ConsultingBlock consulting={consulting} />
          </div>
        </section>
      ) : null,
  },
  expo: {
    needs: ["expo", "contact", ...PICTURE_FACT_FILES, "meeting"],
    // The expo's name, booth and dates are drawn on the sharing card and the meeting illustration too.
    render: (files, pictureUrl, drawn) =>
      files.expo && files.contact ? (
        <>
          <ExpoSection expo={files.expo} boothLabel={files.contact.labels.booth} />
          {sharingCard(files, pictureUrl, drawn)}
          {meeting(files, pictureUrl, drawn)}
        </>
      ) : null,
  },
  meeting: { needs: ["meeting", "contact", ...PICTURE_FACT_FILES], render: meeting },
  contact: {
    needs: ["contact", "meeting", "footer", "site", "solutions", "hero", "expo"],
    render: (files, pictureUrl, drawn) => (
      <>
        {meeting(files, pictureUrl, drawn)}
        {footer(files)}
      </>
    ),
  },
  footer: { needs: ["footer", "site", "contact", "solutions"], render: footer },
};
