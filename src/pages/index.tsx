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
import { StaticHtml } from "../components/static-html";
import { ToastRegion } from "../components/toast-region";
import { CONTACT_FORM_ID, scrollToSectionOnLinkClick } from "../lib/scroll-to-section";
import { expoEventJsonLd, organizationJsonLd, serializeJsonLd } from "../lib/structured-data";

export default function IndexPage({ data }: PageProps<Queries.IndexPageQuery>) {
  const { siteContent, heroContent, solutionsContent, consultingContent, expoContent, meetingContent, contactContent, footerContent, site } =
    requireContent(data);
  useEffect(() => scrollToSectionOnLinkClick(CONTACT_FORM_ID), []);
  // Only the form and the toasts change after the build. Every other part is StaticHtml: rendered
  // into the HTML at build time, left out of the browser's JavaScript (the condition is a constant
  // there, so webpack drops the components behind it) and never hydrated.
  return (
    <>
      <Layout
        skipLinkLabel={siteContent.skipLinkLabel}
        beforeMain={
          <StaticHtml>
            {process.env.BUILD_STAGE !== "build-javascript" && (
              <SiteHeader site={siteContent} booth={contactContent.booth} boothLabel={contactContent.labels.booth} />
            )}
          </StaticHtml>
        }
        afterMain={
          <StaticHtml>
            {process.env.BUILD_STAGE !== "build-javascript" && (
              <SiteFooter
                footer={footerContent}
                site={siteContent}
                contact={contactContent}
                platformNames={solutionsContent.offerings.map((offering) => offering.name)}
                copyrightYear={site.buildTime ?? ""}
              />
            )}
          </StaticHtml>
        }
      >
        <StaticHtml>
          {process.env.BUILD_STAGE !== "build-javascript" && (
            <>
              <Hero hero={heroContent} />
              <SolutionsSection solutions={solutionsContent} consulting={consultingContent} />
              <ExpoSection expo={expoContent} boothLabel={contactContent.labels.booth} />
            </>
          )}
        </StaticHtml>
        <MeetingSection meeting={meetingContent} contact={contactContent} />
      </Layout>
      <ToastRegion label={meetingContent.toastRegionLabel} />
    </>
  );
}

/** Each content file is required by the schema; this narrows the query's nullable roots once. */
function requireContent(data: Queries.IndexPageQuery) {
  const { siteContent, heroContent, solutionsContent, consultingContent, expoContent, meetingContent, contactContent, footerContent, site } = data;
  if (!siteContent || !heroContent || !solutionsContent || !consultingContent || !expoContent || !meetingContent || !contactContent || !footerContent || !site) {
    throw new Error("A content file is missing from content/: every section of the page needs its YAML file.");
  }
  return { siteContent, heroContent, solutionsContent, consultingContent, expoContent, meetingContent, contactContent, footerContent, site };
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
  const event = expoEventJsonLd(
    {
      eventName: expoContent.eventName,
      booth: expoContent.booth,
      startDate: expoContent.startDate,
      endDate: expoContent.endDate,
      venue: expoContent.venue,
      description: expoContent.intro,
      imageUrl: siteContent.shareImage.publicURL ? `${siteUrl}${siteContent.shareImage.publicURL}` : `${siteUrl}/apple-touch-icon.png`,
      pageUrl: `${siteUrl}/`,
    },
    organization["@id"],
  );
  return (
    <Seo title={heroContent.headline} pathname={location.pathname}>
      <script type="application/ld+json">{serializeJsonLd(organization)}</script>
      <script type="application/ld+json">{serializeJsonLd(event)}</script>
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
      toastRegionLabel
    }
    contactContent {
      ...ContactDetails
    }
    footerContent {
      ...SiteFooter
    }
  }
`;
