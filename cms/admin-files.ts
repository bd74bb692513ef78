/**
 * The files of /admin/: the page, the CMS configuration (generated from the content model on
 * every request or build, so it cannot go stale), Sveltia CMS's prebuilt script, its fonts and the
 * modules it loads on demand, and the preview bundle (the page's own components, cms/preview/).
 * Nothing here is imported by the site's pages: the landing page's bundles never contain CMS code.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { glyphAtlasJson } from "../build-time/pictures/font-atlas";
import { cmsConfigYaml, editorTitle, type CmsSettings } from "./config";
import { buildPreviewBundle, type PreviewBundle } from "./preview-bundle";
import { vendorFiles } from "./sveltia-modules";
import {
  fontFiles,
  scriptFileName,
  sveltiaScript,
  VERSION_FILE,
  versionManifest,
} from "./sveltia-script";

export const ADMIN_PATH = "/admin/";

/**
 * No inline script or style: the page's Content-Security-Policy needs no hash for it. The preview
 * script runs after the CMS script (it registers with the CMS's globals) and names its stylesheet.
 */
/** The glyphs the preview draws the pictures with (cms/preview/drawn-pictures.ts), named by their content's hash. */
let glyphsName: string | undefined;
function glyphsFileName(): string {
  glyphsName ??= `picture-glyphs-${crypto.createHash("sha256").update(glyphAtlasJson()).digest("hex").slice(0, 10)}.json`;
  return glyphsName;
}

const adminPage = (preview: PreviewBundle, title: string) => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="robots" content="noindex, nofollow" />
    <title>${escapeHtml(title)}</title>
    <link href="${ADMIN_PATH}config.yml" type="application/yaml" rel="cms-config-url" />
  </head>
  <body>
    <script src="${ADMIN_PATH}${scriptFileName()}"></script>
    <script src="${ADMIN_PATH}${preview.scriptName}" data-stylesheet="${ADMIN_PATH}${preview.stylesheetName}" data-glyphs="${ADMIN_PATH}${glyphsFileName()}"></script>
  </body>
</html>
`;

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

export type AdminFile = { name: string; contentType: string; body: () => Buffer };

const TYPES = {
  html: "text/html; charset=utf-8",
  yaml: "application/yaml; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  json: "application/json",
  woff2: "font/woff2",
};

/** Source maps are not published; drop their comments so browsers do not ask for them. */
function withoutSourceMapComment(source: string): string {
  return source.replace(/\n\/\/# sourceMappingURL=\S+\s*$/, "\n");
}

/** The files of /admin/ with a preview bundle already built (buildPreviewBundle). */
export function adminFilesWith(settings: CmsSettings, preview: PreviewBundle): AdminFile[] {
  return [
    {
      name: "index.html",
      contentType: TYPES.html,
      body: () => Buffer.from(adminPage(preview, editorTitle(settings))),
    },
    {
      name: "config.yml",
      contentType: TYPES.yaml,
      body: () => Buffer.from(cmsConfigYaml(settings)),
    },
    {
      name: scriptFileName(),
      contentType: TYPES.js,
      body: () => Buffer.from(sveltiaScript(ADMIN_PATH)),
    },
    { name: VERSION_FILE, contentType: TYPES.json, body: () => Buffer.from(versionManifest()) },
    ...fontFiles().map(({ name, file }) => ({
      name,
      contentType: TYPES.woff2,
      body: () => fs.readFileSync(file),
    })),
    ...vendorFiles().map(({ name, file }) => ({
      name,
      contentType: TYPES.js,
      body: () => Buffer.from(withoutSourceMapComment(fs.readFileSync(file, "utf8"))),
    })),
    { name: preview.scriptName, contentType: TYPES.js, body: () => preview.script },
    { name: preview.stylesheetName, contentType: TYPES.css, body: () => preview.stylesheet },
    { name: glyphsFileName(), contentType: TYPES.json, body: () => Buffer.from(glyphAtlasJson()) },
  ];
}

export async function adminFiles(settings: CmsSettings): Promise<AdminFile[]> {
  return adminFilesWith(settings, await buildPreviewBundle());
}

/** Writes /admin/ into a built site (public/admin/); returns the files written. */
export async function writeAdminFiles(
  publicDir: string,
  settings: CmsSettings,
  preview?: PreviewBundle,
): Promise<string[]> {
  const dir = path.join(publicDir, ...ADMIN_PATH.split("/").filter(Boolean));
  const files = adminFilesWith(settings, preview ?? (await buildPreviewBundle()));
  // The names carry versions and hashes: files of an earlier build would only pile up.
  fs.rmSync(dir, { recursive: true, force: true });
  return files.map((file) => {
    const target = path.join(dir, ...file.name.split("/"));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, file.body());
    return target;
  });
}
