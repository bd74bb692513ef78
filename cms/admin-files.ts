/**
 * The files of /admin/: the page, the CMS configuration (generated on every request or build),
 * Sveltia CMS's files (cms/sveltia.ts), and the preview bundle with its pictures' glyphs.
 */
import fs from "node:fs";
import path from "node:path";
import { glyphAtlasJson } from "../build-time/pictures/font-atlas";
import { cmsConfigYaml, editorTitle, type CmsSettings } from "./config";
import { buildPreviewBundle, hashedName, type PreviewBundle } from "./preview-bundle";
import {
  scriptFileName,
  sveltiaFiles,
  sveltiaManifest,
  sveltiaScript,
  VERSION_FILE,
  withoutSourceMapComment,
} from "./sveltia";

export const ADMIN_PATH = "/admin/";

export type AdminFile = { name: string; contentType: string; body: () => Buffer };

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".yml": "application/yaml; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".woff2": "font/woff2",
};

/** The glyphs the preview draws the pictures with, named by their content's hash. */
const glyphsFileName = () => hashedName("picture-glyphs", glyphAtlasJson(), "json");

/** No inline script or style; the preview script runs after the CMS script, whose globals it uses. */
function adminPage(preview: PreviewBundle, title: string): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="robots" content="noindex, nofollow" />
    <title>${title.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")}</title>
    <link href="${ADMIN_PATH}config.yml" type="application/yaml" rel="cms-config-url" />
  </head>
  <body>
    <script src="${ADMIN_PATH}${scriptFileName()}"></script>
    <script src="${ADMIN_PATH}${preview.scriptName}" data-stylesheet="${ADMIN_PATH}${preview.stylesheetName}" data-glyphs="${ADMIN_PATH}${glyphsFileName()}"></script>
  </body>
</html>
`;
}

/** The files of /admin/, with a preview bundle already built (buildPreviewBundle). */
export function adminFiles(settings: CmsSettings, preview: PreviewBundle): AdminFile[] {
  const version = { name: "@sveltia/cms", version: sveltiaManifest().version };
  const files: Array<[name: string, body: () => Buffer]> = [
    ["index.html", () => Buffer.from(adminPage(preview, editorTitle(settings)))],
    ["config.yml", () => Buffer.from(cmsConfigYaml(settings))],
    [scriptFileName(), () => Buffer.from(sveltiaScript(ADMIN_PATH))],
    // The version check reads the installed version, so no "update available" banner appears.
    [VERSION_FILE, () => Buffer.from(`${JSON.stringify(version)}\n`)],
    ...sveltiaFiles().map(({ name, file }): [string, () => Buffer] => [
      name,
      () =>
        /\.m?js$/.test(name)
          ? Buffer.from(withoutSourceMapComment(fs.readFileSync(file, "utf8")))
          : fs.readFileSync(file),
    ]),
    [preview.scriptName, () => preview.script],
    [preview.stylesheetName, () => preview.stylesheet],
    [glyphsFileName(), () => Buffer.from(glyphAtlasJson())],
  ];
  return files.map(([name, body]) => ({
    name,
    contentType: CONTENT_TYPES[path.extname(name)]!,
    body,
  }));
}

/** Writes /admin/ into a built site (public/admin/); returns the files written. */
export async function writeAdminFiles(
  publicDir: string,
  settings: CmsSettings,
  preview?: PreviewBundle,
): Promise<string[]> {
  const dir = path.join(publicDir, "admin");
  const files = adminFiles(settings, preview ?? (await buildPreviewBundle()));
  // The names carry versions and hashes: files of an earlier build would only pile up.
  fs.rmSync(dir, { recursive: true, force: true });
  return files.map((file) => {
    const target = path.join(dir, ...file.name.split("/"));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, file.body());
    return target;
  });
}
