/**
 * What the CMS preview shows for each content file: the landing page's own section components
 * (src/components, imported as they are, with their CSS modules), fed the file being edited and,
 * for what a section also shows from other files (the booth label, the contact card, the
 * platform names in the footer), those files as saved.
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
import { meetingSection, platformNames, type ContentFileName, type PageContent, type PictureUrl } from "./content";

type Files = Partial<PageContent>;
type SectionPreview = (files: Files, pictureUrl: PictureUrl) => ReactElement | null;

function footer(files: Files): ReactElement | null {
  const { footer: words, site, contact, solutions } = files;
  if (!words || !site || !contact || !solutions) return null;
  return <SiteFooter footer={words} site={site} contact={contact} platformNames={platformNames(solutions)} copyrightYear={String(new Date().getFullYear())} />;
}

function meeting(files: Files, pictureUrl: PictureUrl): ReactElement | null {
  const { meeting: content, contact } = files;
  if (!content || !contact) return null;
  return <MeetingSection meeting={meetingSection(content, pictureUrl)} contact={contact} />;
}

/** Sections in page order; each lists the files it needs, the edited one first. */
export const SECTION_PREVIEWS: Record<ContentFileName, { needs: readonly ContentFileName[]; render: SectionPreview }> = {
  site: {
    needs: ["site", "contact", "footer", "solutions"],
    render: (files) => {
      const { site, contact } = files;
      if (!site || !contact) return null;
      return (
        <>
          <SiteHeader site={site} booth={contact.booth} boothLabel={contact.labels.booth} />
          {footer(files)}
        </>
      );
    },
  },
  hero: { needs: ["hero"], render: ({ hero }) => (hero ? <Hero hero={hero} /> : null) },
  solutions: {
    needs: ["solutions", "consulting"],
    render: ({ solutions, consulting }) => (solutions && consulting ? <SolutionsSection solutions={solutions} consulting={consulting} /> : null),
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
    needs: ["expo", "contact"],
    render: ({ expo, contact }) => (expo && contact ? <ExpoSection expo={expo} boothLabel={contact.labels.booth} /> : null),
  },
  meeting: { needs: ["meeting", "contact"], render: meeting },
  contact: {
    needs: ["contact", "meeting", "footer", "site", "solutions"],
    render: (files, pictureUrl) => (
      <>
        {meeting(files, pictureUrl)}
        {footer(files)}
      </>
    ),
  },
  footer: { needs: ["footer", "site", "contact", "solutions"], render: footer },
};
