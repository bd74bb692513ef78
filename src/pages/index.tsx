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
import { CONTACT_FORM_ID, scrollToSectionOnLinkClick } from "../lib/scroll-to-section";
import { serializeForScriptElement } from "../lib/script-data";
import { expoEventJsonLd, organizationJsonLd } from "../lib/structured-data";

/**
 * The landing page. In the built site this component only writes the HTML: the browser runs
 * src/boot/page-boot.ts instead of Gatsby's runtime (the calls to action, the form's island). The
 * effect below does the same for `gatsby develop`, where Gatsby's runtime renders the page.
 */
export default function IndexPage({ data }: PageProps<Queries.IndexPageQuery>) {
  useEffect(() => scrollToSectionOnLinkClick(CONTACT_FORM_ID), []);
  return <LandingPage {...requireContent(data)} />;
}

function LandingPage({
  siteContent,
  heroContent,
  solutionsContent,
  consultingContent,
  expoContent,
  meetingContent,
  contactContent,
  footerContent,
  site,
}: ReturnType<typeof requireContent>) {
  return (
    <Layout
      skipLinkLabel={siteContent.skipLinkLabel}
      beforeMain={
        <SiteHeader
          site={siteContent}
          booth={contactContent.booth}
          boothLabel={contactContent.labels.booth}
        />
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
      <ExpoSection expo={expoContent} boothLabel={contactContent.labels.booth} />
      <MeetingSection meeting={meetingContent} contact={contactContent} />
    </Layout>
  );
}

/** Each content file is required by the schema; this narrows the query's nullable roots once. */
function requireContent(data: Queries.IndexPageQuery) {
  const {
    siteContent,
    heroContent,
    solutionsContent,
    consultingContent,
    expoContent,
    meetingContent,
    contactContent,
    footerContent,
    site,
  } = data;
  if (
    !siteContent ||
    !heroContent ||
    !solutionsContent ||
    !consultingContent ||
    !expoContent ||
    !meetingContent ||
    !contactContent ||
    !footerContent ||
    !site
  ) {
    throw new Error(
      "A content file is missing from content/: every section of the page needs its YAML file.",
    );
  }
  return {
    siteContent,
    heroContent,
    solutionsContent,
    consultingContent,
    expoContent,
    meetingContent,
    contactContent,
    footerContent,
    site,
  };
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
      imageUrl: siteContent.shareImage.publicURL
        ? `${siteUrl}${siteContent.shareImage.publicURL}`
        : `${siteUrl}/apple-touch-icon.png`,
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
