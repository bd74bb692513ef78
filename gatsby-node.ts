import path from "node:path";
import type { GatsbyNode } from "gatsby";
import { contentTypeDefinitions } from "./build-time/content/graphql-types";
import { finishBuild } from "./build-time/finish-build";
import { describeSettingsProblems, resolveSupabaseSettings } from "./build-time/supabase-settings";
import { BOOKING_PAGE_ENTRY, PAGE_BOOT_ENTRY } from "./build-time/page-scripts";
import { pictureDescriptionResolvers } from "./build-time/pictures/gatsby-pictures";
import { UNUSED_SUPABASE_PACKAGES } from "./src/lib/supabase-rest-only/unused-clients";

export const onPreInit: GatsbyNode["onPreInit"] = ({ reporter }) => {
  const isProduction = process.env.NODE_ENV === "production";
  const supabase = resolveSupabaseSettings(process.env, isProduction);
  if (!supabase.ok) {
    reporter.panic(describeSettingsProblems(supabase.problems));
    return;
  }
  const { url, usesLocalDefaults } = supabase.settings;
  reporter.info(
    usesLocalDefaults
      ? `Meeting requests go to the embedded local backend at ${url} (start it with npm start).`
      : `Meeting requests go to ${url}.`,
  );
};

/** The pictures' descriptions follow the content like the drawn pictures (build-time/pictures; drawn in plugins/content-yaml). */
export const createResolvers: GatsbyNode["createResolvers"] = pictureDescriptionResolvers;

/** The GraphQL types of content/*.yaml, generated from the content's zod schemas (build-time/content/graphql-types.ts). */
export const createSchemaCustomization: GatsbyNode["createSchemaCustomization"] = ({
  actions,
  reporter,
}) => {
  try {
    actions.createTypes(contentTypeDefinitions());
  } catch (error) {
    reporter.panic(error instanceof Error ? error.message : String(error));
  }
};

/** The pages' scripts, the Content-Security-Policy and the secret scan (build-time/finish-build.ts). */
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
export const onCreateWebpackConfig: GatsbyNode["onCreateWebpackConfig"] = ({
  stage,
  actions,
  getConfig,
}) => {
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
  const config = getConfig() as {
    entry: Record<string, string | string[]>;
    resolve?: { alias?: Record<string, string> };
    optimization: { splitChunks: { cacheGroups: Record<string, object> } };
  };
  const { splitChunks } = config.optimization;
  // The code every page component uses goes into a `commons` chunk; page-boot shares modules with
  // them (the form's script, the page markers) but must not load that chunk at start-up.
  const commons = {
    ...splitChunks.cacheGroups.commons,
    chunks: (chunk: { name?: string }) =>
      chunk.name !== PAGE_BOOT_ENTRY && chunk.name !== BOOKING_PAGE_ENTRY,
  };
  actions.replaceWebpackConfig({
    ...config,
    resolve: { ...config.resolve, alias: { ...config.resolve?.alias, ...alias } },
    entry: {
      ...config.entry,
      [PAGE_BOOT_ENTRY]: path.resolve("src/boot/entry.ts"),
      // The booking page's own script (src/pages/book.tsx), instead of page-boot.
      [BOOKING_PAGE_ENTRY]: path.resolve("src/boot/booking-entry.ts"),
    },
    optimization: {
      ...config.optimization,
      splitChunks: { ...splitChunks, cacheGroups: { ...splitChunks.cacheGroups, commons } },
    },
  });
};
