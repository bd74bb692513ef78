import path from "node:path";
import type { GatsbyNode } from "gatsby";
import { finishBuild } from "./build-time/finish-build";
import { describeSettingsProblems, resolveSupabaseSettings } from "./build-time/supabase-settings";
import { PAGE_BOOT_ENTRY } from "./build-time/page-scripts";
import { pictureDescriptionResolvers } from "./build-time/pictures/gatsby-pictures";
import { UNUSED_SUPABASE_PACKAGES } from "./src/lib/supabase-rest-only/unused-clients";

export const onPreInit: GatsbyNode["onPreInit"] = ({ reporter }) => {
  const isProduction = process.env.NODE_ENV === "production";
  const supabase = resolveSupabaseSettings(process.env, isProduction);
  if (!supabase.ok) {
    reporter.panic(describeSettingsProblems(supabase.problems));
    return;
  }
  if (supabase.settings.usesLocalDefaults) {
    reporter.info(`Meeting requests go to the embedded local backend at ${supabase.settings.url} (start it with npm start).`);
  } else {
    reporter.info(`Meeting requests go to ${supabase.settings.url}.`);
  }
};

/** The pictures' descriptions follow the content like the drawn pictures (build-time/pictures; drawn in plugins/content-yaml). */
export const createResolvers: GatsbyNode["createResolvers"] = pictureDescriptionResolvers;

/**
 * The shape of every file in content/ (checked and made into nodes by plugins/content-yaml).
 * Declared rather than inferred so that a page query never silently loses a field, and a
 * required field missing from the YAML fails the build.
 */
export const createSchemaCustomization: GatsbyNode["createSchemaCustomization"] = ({ actions }) => {
  actions.createTypes(`
    type SiteContent implements Node @dontInfer {
      companyName: String!
      shortName: String!
      description: String!
      history: CompanyHistory!
      shareImage: File! @fileByRelativePath
      shareImageAlt: String!
      skipLinkLabel: String!
      notFound: NotFoundPageCopy!
    }
    type NotFoundPageCopy {
      title: String!
      code: String!
      heading: String!
      homeLinkLabel: String!
    }
    type CompanyHistory {
      established: Int!
      transitFocusSince: Int!
      microtransitSince: Int!
      summary: String!
    }

    type HeroContent implements Node @dontInfer {
      eyebrow: String!
      headline: String!
      lead: String!
      ctaLabel: String!
      stats: [Figure!]!
    }
    type Figure {
      value: String!
      label: String!
    }

    type SolutionsContent implements Node @dontInfer {
      heading: String!
      intro: String!
      ctaLabel: String!
      ctaAboutWord: String!
      offerings: [Offering!]!
    }
    type Offering {
      name: String!
      subtitle: String!
      headerStyle: String!
      highlights: [String!]!
    }

    type ConsultingContent implements Node @dontInfer {
      eyebrow: String!
      heading: String!
      summary: String!
      figures: [Figure!]!
      points: [String!]!
      ctaLabel: String!
    }

    type ExpoContent implements Node @dontInfer {
      eyebrow: String!
      heading: String!
      intro: String!
      eventName: String!
      booth: String!
      startDate: String!
      endDate: String!
      venue: ExpoVenue!
      perksHeading: String!
      perks: [ExpoPerk!]!
      leadersHeading: String!
      leaders: [ExpoLeader!]!
      ctaLabel: String!
    }
    type ExpoVenue {
      name: String!
      city: String!
      region: String!
      country: String!
    }
    type ExpoPerk {
      title: String!
      description: String!
    }
    type ExpoLeader {
      role: String!
      bio: String!
    }

    type MeetingContent implements Node @dontInfer {
      heading: String!
      subtitle: String!
      image: File! @fileByRelativePath
      imageAlt: String!
      formTitle: String!
      contactTitle: String!
      form: MeetingFormCopy!
      productOptions: [ChoiceOption!]!
      meetingTimeOptions: [ChoiceOption!]!
      successToast: ToastMessage!
      failureToast: ToastMessage!
      toastRegionLabel: String!
    }
    type MeetingFormCopy {
      fullNameLabel: String!
      fullNameHint: String!
      organizationLabel: String!
      organizationHint: String!
      emailLabel: String!
      phoneLabel: String!
      fleetSizeLabel: String!
      fleetSizePlaceholder: String!
      productsLegend: String!
      meetingTimeLegend: String!
      challengesLabel: String!
      submitLabel: String!
      submittingLabel: String!
      requiredNote: String!
    }
    type ToastMessage {
      title: String!
      text: String!
    }
    type ChoiceOption {
      value: String!
      label: String!
    }

    type ContactContent implements Node @dontInfer {
      address: PostalAddress!
      phone: String!
      email: String!
      booth: String!
      labels: ContactLabels!
    }
    type ContactLabels {
      address: String!
      phone: String!
      email: String!
      booth: String!
    }
    type PostalAddress {
      street: String!
      city: String!
      region: String!
      postalCode: String!
      country: String!
    }

    type FooterContent implements Node @dontInfer {
      platformsHeading: String!
      resourcesHeading: String!
      paperDownload: FooterLink!
      resources: [FooterLink!]!
      contactHeading: String!
      milestonesLabel: String!
      milestoneLabels: FooterMilestoneLabels!
      rightsNotice: String!
      legalLinksLabel: String!
      legalLinks: [FooterLink!]!
    }
    type FooterMilestoneLabels {
      established: String!
      transitFocusSince: String!
      microtransitSince: String!
    }
    type FooterLink {
      label: String!
      href: String!
    }
  `);
};

/**
 * Script deferral, then the Content-Security-Policy over the final HTML, then the secret scan
 * (build-time/finish-build.ts). The sitemap and robots.txt come from their plugins (gatsby-config.ts).
 */
export const onPostBuild: GatsbyNode["onPostBuild"] = async ({ reporter }) => {
  try {
    await finishBuild({
      publicDir: "public",
      supabaseUrl: process.env.GATSBY_SUPABASE_URL,
      supabaseAnonKey: process.env.GATSBY_SUPABASE_ANON_KEY,
      log: (line) => reporter.info(line),
    });
  } catch (error) {
    reporter.panic(error instanceof Error ? error.message : String(error));
  }
};

/**
 * The built pages' one start-up script, `page-boot` (src/boot/entry.ts): a second webpack entry
 * beside Gatsby's app, sharing its runtime, CSS modules and chunks. build-time/page-scripts.ts
 * puts it in the HTML in place of Gatsby's runtime.
 */
export const onCreateWebpackConfig: GatsbyNode["onCreateWebpackConfig"] = ({ stage, actions, getConfig }) => {
  if (stage !== "develop" && stage !== "build-javascript") return;
  // The page's supabase-js only inserts through PostgREST: its other clients are never used, and
  // were 44 of its 51 KB gzip on the way to the first insert (src/lib/supabase-rest-only).
  const restOnly = path.resolve("src/lib/supabase-rest-only/unused-clients.ts");
  const alias = Object.fromEntries(UNUSED_SUPABASE_PACKAGES.map((name) => [name, restOnly]));
  if (stage === "develop") {
    actions.setWebpackConfig({ resolve: { alias } });
    return;
  }
  // setWebpackConfig drops `entry`; Gatsby's documented way to add one is to replace the config.
  const config = getConfig() as { entry: Record<string, string | string[]>; resolve?: { alias?: Record<string, string> } };
  actions.replaceWebpackConfig({
    ...config,
    resolve: { ...config.resolve, alias: { ...config.resolve?.alias, ...alias } },
    entry: { ...config.entry, [PAGE_BOOT_ENTRY]: path.resolve("src/boot/entry.ts") },
  });
};
