/**
 * /admin/config.yml, derived from the content model: one form per content file, in page order,
 * with every field of its schema (cms/fields.ts), so a field added to a schema appears in the CMS.
 */
import fs from "node:fs";
import path from "node:path";
import { parse, stringify } from "yaml";
import { CONTENT_FILES } from "../build-time/content/content-files";
import { siteUrlFrom } from "../build-time/site-url";
import { cmsFields } from "./fields";

export type CmsSettings = {
  /** "owner/name" of the GitHub repository editors sign in to (CMS_GITHUB_REPO). */
  githubRepo: string;
  /** The branch saves are committed to (CMS_GITHUB_BRANCH, default main). */
  branch: string;
  /** An OAuth client for "Sign in with GitHub" (CMS_AUTH_URL); without it editors sign in with a token. */
  authBaseUrl?: string;
  /** The public address of the site (SITE_URL), linked from the editor's header. */
  siteUrl: string;
  /** The company's name (content/site.yaml), the editor's title on its sign-in screen and browser tab. */
  siteName: string;
};

/** The company's name from content/site.yaml as saved; a neutral title while it cannot be read. */
function siteNameFrom(projectDir: string): string {
  try {
    const text = fs.readFileSync(path.join(projectDir, "content/site.yaml"), "utf8");
    const name = (parse(text) as { companyName?: unknown } | null)?.companyName;
    if (typeof name === "string" && name.trim() !== "") return name.trim();
  } catch {
    // The content check reports an unreadable site.yaml; the editor still opens.
  }
  return "Website";
}

export function cmsSettingsFrom(env: NodeJS.ProcessEnv, projectDir = process.cwd()): CmsSettings {
  return {
    // Until CMS_GITHUB_REPO is set (local editing needs none), the repository is named after the
    // project's folder: "Work with Local Repository" then asks the editor for the folder they know.
    githubRepo: env.CMS_GITHUB_REPO?.trim() || `local/${path.basename(path.resolve(projectDir))}`,
    branch: env.CMS_GITHUB_BRANCH?.trim() || "main",
    authBaseUrl: env.CMS_AUTH_URL?.trim() || undefined,
    siteUrl: siteUrlFrom(env),
    siteName: siteNameFrom(projectDir),
  };
}

/** The editor's title: on its sign-in screen, in its header and in the browser tab. */
export function editorTitle(settings: Pick<CmsSettings, "siteName">): string {
  return `${settings.siteName} · Website editor`;
}

export function cmsConfig(settings: CmsSettings) {
  return {
    app_title: editorTitle(settings),
    // The company's mark (the site's icon), on the sign-in screen and in the editor's header.
    logo: { src: "/favicon.svg", show_in_header: true },
    // "View site" in the editor's menu, and the address it shows, go to the live page.
    site_url: settings.siteUrl,
    display_url: settings.siteUrl,
    backend: {
      name: "github",
      repo: settings.githubRepo,
      branch: settings.branch,
      // "Sign In with GitHub" goes to base_url, which defaults to Netlify's OAuth service: offered
      // only with an OAuth client of our own (CMS_AUTH_URL); otherwise editors sign in with a token.
      ...(settings.authBaseUrl
        ? { base_url: settings.authBaseUrl, auth_methods: ["oauth", "token"] }
        : { auth_methods: ["token"] }),
      commit_messages: {
        update: "Content: update {{path}} (edited in /admin/)",
        uploadMedia: "Content: add picture {{path}}",
      },
    },
    // Pictures live beside the YAML that names them; the image fields write "./images/<file>".
    media_folder: "content/images",
    public_folder: "/images",
    // Pictures come from the editor's computer: no stock-photo services.
    media_libraries: { stock_assets: false },
    // Every text in double quotes: a booth "713", a figure "4" or a date "2025-05-18" stays text.
    output: { yaml: { quote: "double" } },
    collections: [
      {
        name: "page",
        label: "Landing page",
        label_singular: "Section",
        description:
          "Each section of the landing page has its own form, with a preview of the section beside it. Saved changes appear on the live page after it has been rebuilt, a few minutes later.",
        format: "yaml",
        editor: { preview: true },
        files: CONTENT_FILES.map((spec) => ({
          name: spec.name,
          // "First screen (content/hero.yaml)" → "First screen".
          label: String(spec.schema.meta()?.title ?? spec.name).replace(/\s*\(.*\)$/, ""),
          file: `content/${spec.name}.yaml`,
          fields: cmsFields(spec.schema),
        })),
      },
    ],
  };
}

export function cmsConfigYaml(settings: CmsSettings): string {
  return `# Generated from build-time/content/schemas by cms/config.ts: edit the schemas, not this file.\n${stringify(cmsConfig(settings), { lineWidth: 120, aliasDuplicateObjects: false })}`;
}
