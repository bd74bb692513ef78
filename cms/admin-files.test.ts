/**
 * /admin/'s files: a page without inline code, and nothing loaded from another host.
 */
import { adminFiles, type AdminFile } from "./admin-files";
import { cmsSettingsFrom } from "./config";
import { buildPreviewBundle } from "./preview-bundle";
import { scriptFileName, sveltiaManifest, vendorDir } from "./sveltia";

describe("/admin/ files", () => {
  let served: AdminFile[] = [];
  beforeAll(async () => {
    served = adminFiles(cmsSettingsFrom({}), await buildPreviewBundle());
  });
  const text = (name: string) =>
    served
      .find((file) => file.name === name)
      ?.body()
      .toString("utf8") ?? "";

  it("serves every file with its content type", () => {
    for (const file of served)
      expect([file.name, file.contentType]).toEqual([file.name, expect.stringMatching(/\//)]);
  });

  it("is a noindex page without inline script or style", () => {
    const page = text("index.html");
    expect(page).toContain('<meta name="robots" content="noindex, nofollow" />');
    expect(page).not.toMatch(/<script>|<style|style="/);
    // Hosts cache *.js for a year: the name changes with every Sveltia CMS version.
    expect(page).toContain(`<script src="/admin/${scriptFileName()}"></script>`);
    expect(scriptFileName()).toMatch(/^sveltia-cms-\d+\.\d+\.\d+\.js$/);
    // The preview comes after the CMS script (it registers with its globals) and names its stylesheet.
    expect(page).toMatch(
      /<script src="\/admin\/preview-[0-9a-f]{10}\.js" data-stylesheet="\/admin\/preview-[0-9a-f]{10}\.css" data-glyphs="\/admin\/picture-glyphs-[0-9a-f]{10}\.json"><\/script>\s*<\/body>/,
    );
  });

  it("loads nothing from public CDNs: fonts, version check, on-demand modules and the React DOM chunk are served from /admin/", () => {
    const script = text(scriptFileName());
    const vendor = vendorDir();
    expect(script).toContain(`\`/admin/${vendor}/modules/\${e}\``);
    expect(script).toContain(`\`${vendor}/chunks/\${e}.js\``);
    expect(text(`${vendor}/chunks/react-dom.js`)).toContain("createRoot");
    expect(
      text(
        `${vendor}/modules/immutable@${sveltiaManifest().dependencies.immutable?.replace(/^\D/, "")}/dist/immutable.es.js`,
      ),
    ).toMatch(/export \{/);
    const cdnOrSourceMap = /cdn\.jsdelivr\.net|unpkg\.com|sourceMappingURL/;
    const scripts = served.filter((file) => /\.m?js$/.test(file.name));
    const offending = scripts.filter((file) => cdnOrSourceMap.test(file.body().toString("utf8")));
    expect(offending.map((file) => file.name)).toEqual([]);
    expect(script).toContain("/admin/fonts/material-symbols-outlined-latin-wght-normal.woff2");
    const fonts = served.filter((file) => file.name.startsWith("fonts/"));
    expect(fonts).toHaveLength(3);
    for (const font of fonts) expect(font.body().subarray(0, 4).toString("latin1")).toBe("wOF2");
    expect(JSON.parse(text("sveltia-cms/package.json"))).toMatchObject({
      name: "@sveltia/cms",
      version: expect.any(String),
    });
  });
});
