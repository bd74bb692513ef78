/**
 * The CMS preview bundle is built from the landing page's own section components and styles (so
 * the preview cannot drift from the page), with the site's React, and without the form's network
 * and toast code (the preview never sends a request). Its files' hashed names: admin-files.test.ts.
 */
import { buildPreviewBundle, type PreviewBundle } from "./preview-bundle";

let bundle: PreviewBundle;
beforeAll(async () => {
  bundle = await buildPreviewBundle();
});

const SECTION_COMPONENTS = [
  "hero",
  "solutions-section",
  "offering-card",
  "consulting-block",
  "expo-section",
  "meeting-section",
  "meeting-form",
  "contact-card",
  "cta-link",
  "site-header",
  "site-footer",
];

it("renders the page's own section components with their CSS modules and the page's design tokens", () => {
  for (const name of SECTION_COMPONENTS) {
    expect(bundle.inputs).toContain(`src/components/${name}.tsx`);
    expect(bundle.inputs).toContain(`src/components/${name}.module.css`);
  }
  expect(bundle.inputs).toEqual(
    expect.arrayContaining(["src/styles/tokens.css", "src/styles/global.css"]),
  );
  expect(bundle.stylesheet.toString("utf8")).toContain("--color-navy-900:");
});

it("uses the site's React 18 (React DOM's client included)", () => {
  expect(bundle.inputs).toEqual(
    expect.arrayContaining(["node_modules/react/index.js", "node_modules/react-dom/client.js"]),
  );
  expect(bundle.script.toString("utf8")).toMatch(/18\.\d+\.\d+/);
});

it("leaves out the form's request and toast code: supabase-js and react-toastify stay out of /admin/", () => {
  expect(bundle.inputs).toEqual(expect.arrayContaining(["cms/preview/stand-ins.ts"]));
  expect(
    bundle.inputs.filter((input) =>
      /src\/(lib\/submit-meeting-request|lib\/toasts|components\/toast-container)\.tsx?$|@supabase|react-toastify|node_modules\/gatsby\//.test(
        input,
      ),
    ),
  ).toEqual([]);
});
