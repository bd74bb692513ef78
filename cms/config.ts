/**
 * The CMS configuration (served as /admin/config.yml), derived from the content model in
 * build-time/content: one form per content file, in page order, with every field of its schema.
 * Nothing here is written by hand per field, so a field added to a schema appears in the CMS.
 */
import { dump } from "js-yaml";
import { CONTENT_FILES, type ContentFileSpec } from "../build-time/content/content-files";
import { cmsFields, type CmsField } from "./fields";

export type CmsSettings = {
  /** "owner/name" of the GitHub repository editors sign in to (CMS_GITHUB_REPO). */
  githubRepo: string;
  /** The branch saves are committed to (CMS_GITHUB_BRANCH, default main). */
  branch: string;
  /** An OAuth client for "Sign in with GitHub" (CMS_AUTH_URL); without it editors sign in with a token. */
  authBaseUrl?: string;
};

/** Shown on the sign-in page until CMS_GITHUB_REPO is set; local editing works without it. */
export const PLACEHOLDER_REPO = "your-organisation/your-repository";

export function cmsSettingsFrom(env: NodeJS.ProcessEnv): CmsSettings {
  const authBaseUrl = env.CMS_AUTH_URL?.trim();
  return {
    githubRepo: env.CMS_GITHUB_REPO?.trim() || PLACEHOLDER_REPO,
    branch: env.CMS_GITHUB_BRANCH?.trim() || "main",
    ...(authBaseUrl ? { authBaseUrl } : {}),
  };
}

type CmsFile = { name: string; label: string; file: string; fields: CmsField[] };

/** "First screen (content/hero.yaml)" → "First screen". */
function sectionLabel(spec: ContentFileSpec): string {
  const title = spec.schema.meta()?.title;
  return typeof title === "string" ? title.replace(/\s*\(.*\)$/, "") : spec.name;
}

function cmsFile(spec: ContentFileSpec): CmsFile {
  return { name: spec.name, label: sectionLabel(spec), file: `content/${spec.name}.yaml`, fields: cmsFields(spec.schema) };
}

export function cmsConfig(settings: CmsSettings) {
  return {
    app_title: "Landing page content",
    backend: {
      name: "github",
      repo: settings.githubRepo,
      branch: settings.branch,
      // "Sign In with GitHub" goes to base_url, which defaults to Netlify's OAuth service: offered
      // only with an OAuth client of our own (CMS_AUTH_URL); otherwise editors sign in with a token.
      ...(settings.authBaseUrl ? { base_url: settings.authBaseUrl, auth_methods: ["oauth", "token"] } : { auth_methods: ["token"] }),
      commit_messages: { update: "Content: update {{path}} (edited in /admin/)", uploadMedia: "Content: add picture {{path}}" },
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
        description: "Each section of the landing page is one file in content/. Saving commits the file; the site then rebuilds.",
        format: "yaml",
        editor: { preview: true },
        files: CONTENT_FILES.map(cmsFile),
      },
    ],
  };
}

export function cmsConfigYaml(settings: CmsSettings): string {
  return `# Generated from build-time/content/schemas by cms/config.ts: edit the schemas, not this file.\n${dump(cmsConfig(settings), { lineWidth: 120, noRefs: true })}`;
}
