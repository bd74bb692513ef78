import React, { useEffect } from "react";
import { graphql } from "gatsby";
import type { HeadProps, PageProps } from "gatsby";
import { ExpoSection } from "../components/expo-section";
import { Hero } from "../components/hero";
import { Layout } from "../components/layout";
import { MeetingSection } from "../components/meeting-section";
import { Seo } from "../components/seo";
import { SiteFooter } from "../components/site-footer";
import { SiteHeader } from "../components/site-header";
import { SolutionsSection } from "../components/solutions-section";
import { CONTACT_FORM_ID } from "../lib/page-markers";
import { scrollToSectionOnLinkClick } from "../lib/scroll-to-section";
import { serializeForScriptElement } from "../lib/script-data";
import { expoEventJsonLd, organizationJsonLd } from "../lib/structured-data";

/**
 * The landing page. In the built site this component only writes the HTML: the browser runs
 * src/boot/page-boot.ts instead of Gatsby's runtime. The effect does the same for `gatsby develop`.
 */
export default function IndexPage({ data }: PageProps<Queries.IndexPageQuery>) {
  useEffect(() => scrollToSectionOnLinkClick(CONTACT_FORM_ID), []);
  const { siteContent, heroContent, solutionsContent, consultingContent, expoContent, ...rest } =
    requireContent(data);
  const { meetingContent, contactContent, footerContent, site } = rest;
  const boothLabel = contactContent.labels.booth;
  return (
    <Layout
      skipLinkLabel={siteContent.skipLinkLabel}
      beforeMain={
        <SiteHeader site={siteContent} booth={contactContent.booth} boothLabel={boothLabel} />
      }
      afterMain={
        <SiteFooter
          footer={footerContent}
          site={siteContent}
          contact={contactContent}
          platformNames={solutionsContent.offerings.map((offering) => offering.name)}
          copyrightYear={site.buildTime ?? ""}
        />
      }
    >
      <Hero hero={heroContent} />
      <SolutionsSection solutions={solutionsContent} consulting={consultingContent} />
      <ExpoSection expo={expoContent} boothLabel={boothLabel} />
      <MeetingSection meeting={meetingContent} contact={contactContent} />
    </Layout>
  );
}

type RequiredContent = {
  [Root in keyof Queries.IndexPageQuery]: NonNullable<Queries.IndexPageQuery[Root]>;
};

/** Every content file is required by the content check; this narrows the query's nullable roots. */
function requireContent(data: Queries.IndexPageQuery): RequiredContent {
  const missing = Object.entries(data).filter(([, value]) => !value);
  if (missing.length > 0)
    throw new Error(
      `Missing from content/: ${missing.map(([root]) => root).join(", ")}. Every section of the page needs its YAML file.`,
    );
  return data as RequiredContent;
}

export function Head({ data, location }: HeadProps<Queries.IndexPageQuery>) {
  const { siteContent, heroContent, expoContent, contactContent, site } = requireContent(data);
  const siteUrl = site.siteMetadata?.siteUrl ?? "";
  const organization = organizationJsonLd({
    name: siteContent.companyName,
    description: siteContent.description,
    siteUrl,
    logoUrl: `${siteUrl}/apple-touch-icon.png`,
    foundingYear: siteContent.history.established,
    phone: contactContent.phone,
    email: contactContent.email,
    address: contactContent.address,
  });
  const shareImage = siteContent.shareImage.publicURL ?? "/apple-touch-icon.png";
  const event = expoEventJsonLd(
    {
      ...expoContent,
      description: expoContent.intro,
      imageUrl: `${siteUrl}${shareImage}`,
      pageUrl: `${siteUrl}/`,
    },
    organization["@id"],
  );
  return (
    <Seo title={heroContent.headline} pathname={location.pathname}>
      <script type="application/ld+json">{serializeForScriptElement(organization)}</script>
      <script type="application/ld+json">{serializeForScriptElement(event)}</script>
    </Seo>
  );
}

export const query = graphql`
  query IndexPage {
    site {
      buildTime(formatString: "YYYY")
      siteMetadata {
        siteUrl
      }
    }
    siteContent {
      ...SiteHeader
      ...FooterCompany
      description
      skipLinkLabel
      shareImage {
        publicURL
      }
      history {
        established
      }
    }
    heroContent {
      ...HeroSection
    }
    solutionsContent {
      ...SolutionsSection
      offerings {
        name
      }
    }
    consultingContent {
      ...ConsultingBlock
    }
    expoContent {
      ...ExpoSection
      startDate
      endDate
      venue {
        name
        city
        region
        country
      }
    }
    meetingContent {
      ...MeetingSection
    }
    contactContent {
      ...ContactDetails
    }
    footerContent {
      ...SiteFooter
    }
  }
`;
