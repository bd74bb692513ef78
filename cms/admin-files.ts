/**
 * The files of /admin/: the page, the CMS configuration (generated from the content model on
 * every request or build, so it cannot go stale), Sveltia CMS's prebuilt script and its fonts.
 * Nothing here is imported by the site's pages: the landing page's bundles never contain CMS code.
 */
import fs from "node:fs";
import path from "node:path";
import { cmsConfigYaml, type CmsSettings } from "./config";
import { fontFiles, scriptFileName, sveltiaScript, VERSION_FILE, versionManifest } from "./sveltia-script";

export const ADMIN_PATH = "/admin/";

/** No inline script or style: the page's Content-Security-Policy needs no hash for it. */
const adminPage = () => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="robots" content="noindex, nofollow" />
    <title>Landing page content</title>
    <link href="${ADMIN_PATH}config.yml" type="application/yaml" rel="cms-config-url" />
  </head>
  <body>
    <script src="${ADMIN_PATH}${scriptFileName()}"></script>
  </body>
</html>
`;

export type AdminFile = { name: string; contentType: string; body: () => Buffer };

const TYPES = { html: "text/html; charset=utf-8", yaml: "application/yaml; charset=utf-8", js: "text/javascript; charset=utf-8", json: "application/json", woff2: "font/woff2" };

export function adminFiles(settings: CmsSettings): AdminFile[] {
  return [
    { name: "index.html", contentType: TYPES.html, body: () => Buffer.from(adminPage()) },
    { name: "config.yml", contentType: TYPES.yaml, body: () => Buffer.from(cmsConfigYaml(settings)) },
    { name: scriptFileName(), contentType: TYPES.js, body: () => Buffer.from(sveltiaScript(ADMIN_PATH)) },
    { name: VERSION_FILE, contentType: TYPES.json, body: () => Buffer.from(versionManifest()) },
    ...fontFiles().map(({ name, file }) => ({ name, contentType: TYPES.woff2, body: () => fs.readFileSync(file) })),
  ];
}

/** Writes /admin/ into a built site (public/admin/); returns the files written. */
export function writeAdminFiles(publicDir: string, settings: CmsSettings): string[] {
  const dir = path.join(publicDir, ...ADMIN_PATH.split("/").filter(Boolean));
  return adminFiles(settings).map((file) => {
    const target = path.join(dir, ...file.name.split("/"));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, file.body());
    return target;
  });
}
