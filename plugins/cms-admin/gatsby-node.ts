/**
 * /admin/, the content editor (docs/cms.md): served by `gatsby develop`, written to public/admin/
 * by `gatsby build` before the site's onPostBuild, so the secret scan covers it. Not a Gatsby page.
 */
import type { Express } from "express";
import type { GatsbyNode } from "gatsby";
import { ADMIN_PATH, adminFiles, writeAdminFiles } from "../../cms/admin-files";
import { cmsSettingsFrom } from "../../cms/config";
import { buildPreviewBundle } from "../../cms/preview-bundle";

export const onCreateDevServer: GatsbyNode["onCreateDevServer"] = async ({ app, reporter }) => {
  // gatsby develop serves public/ first: write the current files over the last build's copy.
  const preview = await buildPreviewBundle();
  await writeAdminFiles("public", cmsSettingsFrom(process.env), preview);
  // Gatsby types its Express app as `any`.
  const server: Express = app;
  // Express matches "/admin" and "/admin/" alike unless the route says otherwise: one exact pattern.
  server.get(/^\/admin(\/.*)?$/, (request, response, next) => {
    if (request.path === ADMIN_PATH.slice(0, -1)) return response.redirect(ADMIN_PATH);
    const name = request.path.slice(ADMIN_PATH.length) || "index.html";
    const files = adminFiles(cmsSettingsFrom(process.env), preview);
    const file = files.find((candidate) => candidate.name === name);
    if (!file) return next();
    response.set("Content-Type", file.contentType);
    response.set("Cache-Control", "no-store");
    response.set("X-Robots-Tag", "noindex, nofollow");
    response.send(file.body());
  });
  reporter.info(
    `Content editor: ${ADMIN_PATH} on this server (e.g. http://localhost:8000${ADMIN_PATH}); in Chrome or Edge, choose "Work with Local Repository" and pick this folder.`,
  );
};

export const onPostBuild: GatsbyNode["onPostBuild"] = async ({ reporter }) => {
  const written = await writeAdminFiles("public", cmsSettingsFrom(process.env));
  reporter.info(`Wrote the content editor to ${ADMIN_PATH} (${written.length} files).`);
};
