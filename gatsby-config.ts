import path from "node:path";
import type { GatsbyConfig } from "gatsby";
import { contentTypeName } from "./build-time/content/graphql-types";
import { loadEnvFiles } from "./build-time/env-files";
import { DRAWN_PICTURES_DIR } from "./build-time/pictures/drawn-pictures";
import { siteUrlFrom } from "./build-time/site-url";
import {
  resolveSupabaseSettings,
  SUPABASE_ANON_KEY_VARIABLE,
  SUPABASE_URL_VARIABLE,
} from "./build-time/supabase-settings";

// Values already in the environment win over the .env files.
const mode = process.env.NODE_ENV === "production" ? "production" : "development";
loadEnvFiles(mode, __dirname);

// Development without settings talks to the local backend: its values go into the environment
// before webpack reads GATSBY_* variables. A production build without them stops (gatsby-node.ts).
const supabase = resolveSupabaseSettings(process.env, mode === "production");
if (supabase.ok && supabase.settings.usesLocalDefaults) {
  process.env[SUPABASE_URL_VARIABLE] = supabase.settings.url;
  process.env[SUPABASE_ANON_KEY_VARIABLE] = supabase.settings.anonKey;
}

const siteUrl = siteUrlFrom(process.env);

const config: GatsbyConfig = {
  siteMetadata: { siteUrl },
  graphqlTypegen: { typesOutputPath: "src/gatsby-types.d.ts", generateOnBuild: true },
  trailingSlash: "always",
  plugins: [
    // sitemap-index.xml for every page but the 404 pages and the staff's booking page (/book/).
    {
      resolve: "gatsby-plugin-sitemap",
      options: { createLinkInHead: false, excludes: ["/book/"] },
    },
    {
      resolve: "gatsby-plugin-robots-txt",
      // host: null leaves out the non-standard Host line.
      options: {
        host: null,
        sitemap: `${siteUrl}/sitemap-index.xml`,
        policy: [{ userAgent: "*", allow: "/" }],
      },
    },
    // gatsby-plugin-image is a dependency, not a plugin: as a plugin it only adds a script and
    // styles for <GatsbyImage>, which the site does not use (src/components/content-picture.tsx).
    "gatsby-plugin-sharp",
    "gatsby-transformer-sharp",
    {
      resolve: "gatsby-source-filesystem",
      options: {
        name: "content",
        path: path.resolve(__dirname, "content"),
        ignore: ["**/schemas/**", "**/*.md"],
      },
    },
    // The pictures drawn from the content (build-time/pictures), for the picture fields left empty.
    {
      resolve: "gatsby-source-filesystem",
      options: { name: "drawn-pictures", path: DRAWN_PICTURES_DIR },
    },
    {
      // The content pipeline (plugins/content-yaml): the content check, then gatsby-transformer-yaml.
      resolve: "content-yaml",
      options: {
        // One node per file, named after the file: content/hero.yaml → HeroContent.
        typeName: ({ node }: { node: { name: string } }) => contentTypeName(node.name),
      },
    },
    // The content editor at /admin/ (cms/): served by gatsby develop, written into the build.
    "cms-admin",
  ],
};

export default config;
