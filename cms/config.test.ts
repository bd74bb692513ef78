/**
 * The CMS configuration is derived from the content schemas; these tests fail when a schema
 * holds something the derivation loses (a field, a required mark, a list minimum, a choice, a
 * pattern), and when /admin/ would load code or fonts from another host.
 */
import fs from "node:fs";
import path from "node:path";
import { parse } from "yaml";
import { z } from "zod";
import { CONTENT_FILES } from "../build-time/content/content-files";
import { OFFERING_HEADER_STYLES } from "../src/lib/offering-header-styles";
import { adminFiles, type AdminFile } from "./admin-files";
import { buildPreviewBundle } from "./preview-bundle";
import { scriptFileName, sveltiaManifest, vendorDir } from "./sveltia";
import { cmsConfig, cmsConfigYaml, cmsSettingsFrom, editorTitle, LOGO_PATH } from "./config";
import type { CmsField } from "./fields";
import { CONTENT_FILE_NAMES } from "./preview/content";

const settings = cmsSettingsFrom({});
const files = cmsConfig(settings).collections[0]!.files;

function fileConfig(name: string) {
  const file = files.find((candidate) => candidate.name === name);
  if (!file) throw new Error(`no CMS form for ${name}`);
  return file;
}

function fieldAt(fields: readonly CmsField[] | undefined, ...names: string[]): CmsField {
  let current: CmsField | undefined;
  let level = fields;
  for (const name of names) {
    current = level?.find((field) => field.name === name);
    if (!current) throw new Error(`no field ${names.join(".")}`);
    level = current.fields;
  }
  if (!current) throw new Error("no field name given");
  return current;
}

/** Every field path of a zod group, e.g. "offerings.headerStyle". */
function schemaPaths(group: z.ZodObject, prefix = ""): string[] {
  return Object.entries(group.shape).flatMap(([name, schema]) => {
    const here = `${prefix}${name}`;
    if (schema instanceof z.ZodObject) return [here, ...schemaPaths(schema, `${here}.`)];
    if (schema instanceof z.ZodArray && schema.element instanceof z.ZodObject)
      return [here, ...schemaPaths(schema.element, `${here}.`)];
    return [here];
  });
}

function configPaths(fields: readonly CmsField[], prefix = ""): string[] {
  return fields.flatMap((field) => {
    const here = `${prefix}${field.name}`;
    return field.fields ? [here, ...configPaths(field.fields, `${here}.`)] : [here];
  });
}

/** Every field of a form, those inside groups and lists included. */
function everyField(fields: readonly CmsField[]): CmsField[] {
  return fields.flatMap((field) => [
    field,
    ...everyField(field.fields ?? []),
    ...(field.field ? everyField([field.field]) : []),
  ]);
}

function matches(field: CmsField, value: string): boolean {
  if (!field.pattern) throw new Error(`${field.name} has no pattern`);
  return new RegExp(field.pattern[0]).test(value);
}

describe("CMS configuration derived from the content schemas", () => {
  it("has one form per content file, in page order, editing content/<name>.yaml", () => {
    expect(files.map((file) => file.file)).toEqual(
      CONTENT_FILES.map((spec) => `content/${spec.name}.yaml`),
    );
    expect(fileConfig("hero").label).toBe("First screen");
  });

  it.each(CONTENT_FILES.map((spec) => [spec.name, spec] as const))(
    "%s: every schema field is a form field with its description as help, required unless it is an own picture in place of a drawn one",
    (_name, spec) => {
      const form = fileConfig(spec.name);
      expect(configPaths(form.fields)).toEqual(schemaPaths(spec.schema));
      const unhelped = configPaths(form.fields).filter((path) => {
        const field = fieldAt(form.fields, ...path.split("."));
        const optional = spec.schema.shape[path] instanceof z.ZodOptional;
        return field.required !== !optional || !field.hint;
      });
      expect(unhelped).toEqual([]);
    },
  );

  it("offers an own sharing card and meeting picture as optional picture uploads, saying in plain words that the site draws one otherwise", () => {
    for (const [file, name] of [
      ["site", "shareImage"],
      ["meeting", "image"],
    ] as const) {
      const field = fieldAt(fileConfig(file).fields, name);
      expect(field).toMatchObject({
        widget: "image",
        required: false,
        label: expect.stringMatching(/^Your own .*picture \(optional\)$/),
      });
      expect(field.hint).toMatch(/^Leave empty to use the .* the site draws for you/);
      expect(field.hint).not.toMatch(/yaml|\.\/images|path/i);
    }
  });

  it("leaves the YAML typing advice out of the help texts (the CMS writes the YAML), and keeps the rest", () => {
    const hints = files.flatMap((file) => everyField(file.fields).map((field) => field.hint ?? ""));
    expect(hints.filter((hint) => /quotes|"- "/.test(hint))).toEqual([]);
    expect(fieldAt(fileConfig("expo").fields, "heading").hint).toBe(
      "The heading of the expo section.",
    );
    expect(fieldAt(fileConfig("solutions").fields, "offerings", "highlights").hint).toBe(
      "The highlight sentences listed on the card.",
    );
    expect(fieldAt(fileConfig("meeting").fields, "successToast", "text").hint).toBe(
      "The sentence under the title.",
    );
  });

  it("has a preview template for every content file (the preview keeps its own list of names, so zod stays out of /admin/)", () => {
    expect([...CONTENT_FILE_NAMES]).toEqual(CONTENT_FILES.map((spec) => spec.name));
  });

  it("keeps list minimums, the header styles and plain lists of sentences", () => {
    const offerings = fieldAt(fileConfig("solutions").fields, "offerings");
    expect(offerings).toMatchObject({ widget: "list", min: 1, label_singular: "Offering" });
    expect(fieldAt(offerings.fields, "headerStyle")).toMatchObject({
      widget: "select",
      options: [...OFFERING_HEADER_STYLES],
    });
    expect(fieldAt(offerings.fields, "highlights")).toMatchObject({
      widget: "list",
      min: 1,
      field: { widget: "string", label: "Highlight" },
    });
  });

  it("refuses a bad e-mail address, phone, link, country and date with the content check's own sentence", () => {
    const contact = fileConfig("contact").fields;
    const email = fieldAt(contact, "email");
    expect(matches(email, "meetings@example.com")).toBe(true);
    expect(matches(email, "meetings@meridianmobility")).toBe(false);
    expect(email.pattern?.[1]).toBe("Expected an e-mail address such as meetings@example.com.");
    expect(matches(fieldAt(contact, "phone"), "(614) 555-0172")).toBe(true);
    expect(matches(fieldAt(contact, "phone"), "call us")).toBe(false);
    expect(matches(fieldAt(contact, "address", "country"), "usa")).toBe(false);
    const href = fieldAt(fileConfig("footer").fields, "paperDownload", "href");
    expect(
      ["#", "#contact-form", "/privacy/", "https://example.com/a.pdf"].every((value) =>
        matches(href, value),
      ),
    ).toBe(true);
    expect(matches(href, "www.example.com")).toBe(false);
    expect(fieldAt(fileConfig("expo").fields, "startDate")).toMatchObject({
      widget: "datetime",
      format: "YYYY-MM-DD",
      time_format: false,
    });
  });

  it("refuses text that is only spaces", () => {
    const headline = fieldAt(fileConfig("hero").fields, "headline");
    expect(matches(headline, "   ")).toBe(false);
    expect(matches(headline, "Turn microtransit into success")).toBe(true);
  });

  it("uploads pictures into content/images and writes the path the page reads", () => {
    expect(fieldAt(fileConfig("meeting").fields, "image")).toMatchObject({
      widget: "image",
      media_folder: "/content/images",
      public_folder: "./images",
      choose_url: false,
      accept: expect.stringContaining(".png"),
    });
    expect(fieldAt(fileConfig("meeting").fields, "imageAlt")).toMatchObject({
      widget: "text",
      required: true,
    });
  });

  it("is YAML the CMS reads back to the same configuration, keeping dates and numbers quoted", () => {
    const config = cmsConfig(settings);
    expect(parse(cmsConfigYaml(settings))).toEqual(config);
    expect(config.output.yaml.quote).toBe("double");
  });

  it("signs in to the repository named by CMS_GITHUB_REPO, with an OAuth client only when CMS_AUTH_URL is set", () => {
    expect(cmsConfig(settings).backend).toMatchObject({
      name: "github",
      repo: `local/${path.basename(process.cwd())}`,
      branch: "main",
    });
    expect(cmsConfig(settings).backend).not.toHaveProperty("base_url");
    // Without an OAuth client of our own, "Sign In with GitHub" would use Netlify's (api.netlify.com): tokens only.
    expect(cmsConfig(settings).backend.auth_methods).toEqual(["token"]);
    const production = cmsConfig(
      cmsSettingsFrom({
        CMS_GITHUB_REPO: "meridian/site",
        CMS_GITHUB_BRANCH: "live",
        CMS_AUTH_URL: "https://auth.example.com",
      }),
    );
    expect(production.backend).toMatchObject({
      repo: "meridian/site",
      branch: "live",
      base_url: "https://auth.example.com",
      auth_methods: ["oauth", "token"],
    });
  });
});

describe("the editor's first screen", () => {
  it("names the project's folder for local editing, not a placeholder, until CMS_GITHUB_REPO names the repository", () => {
    const local = cmsSettingsFrom({}, "/home/maria/meridian-expo-site");
    expect(cmsConfig(local).backend.repo).toBe("local/meridian-expo-site");
    expect(cmsConfigYaml(local)).not.toMatch(/your-repository|your-organisation/);
  });

  it("carries the company's name (from content/site.yaml), logo and site address", () => {
    const config = cmsConfig(settings);
    expect(settings.siteName).toBe("Meridian Mobility Systems");
    expect(config.app_title).toBe(editorTitle(settings));
    expect(config.app_title).toContain("Meridian Mobility Systems");
    expect(config.logo).toEqual({ src: LOGO_PATH, show_in_header: true });
    expect(fs.existsSync(path.join("static", LOGO_PATH))).toBe(true);
    expect(config).toMatchObject({ site_url: settings.siteUrl, display_url: settings.siteUrl });
    expect(cmsSettingsFrom({ SITE_URL: "https://meridian.example/" }).siteUrl).toBe(
      "https://meridian.example",
    );
  });

  it("speaks to an editor, not a developer: no file names or code words in section names, labels or the collection's description", () => {
    const config = cmsConfig(settings);
    const collection = config.collections[0];
    const words = [collection?.description, ...files.map((file) => file.label)];
    const labels = files.flatMap((file) => everyField(file.fields).map((field) => field.label));
    expect(
      [...words, ...labels].filter(
        (text) =>
          text && /content\/|\.ya?ml|commit|toast|legend|placeholder|\bcta\b|\bhint\b/i.test(text),
      ),
    ).toEqual([]);
  });
});

describe("/admin/ files", () => {
  let served: AdminFile[] = [];
  beforeAll(async () => {
    served = adminFiles(settings, await buildPreviewBundle());
  });
  const text = (name: string) =>
    served
      .find((file) => file.name === name)
      ?.body()
      .toString("utf8") ?? "";

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
    expect(script).not.toMatch(/cdn\.jsdelivr\.net|unpkg\.com/);
    const vendor = vendorDir();
    expect(script).toContain(`\`/admin/${vendor}/modules/\${e}\``);
    expect(script).toContain(`\`${vendor}/chunks/\${e}.js\``);
    expect(text(`${vendor}/chunks/react-dom.js`)).toContain("createRoot");
    expect(
      text(
        `${vendor}/modules/immutable@${sveltiaManifest().dependencies.immutable?.replace(/^\D/, "")}/dist/immutable.es.js`,
      ),
    ).toMatch(/export \{/);
    for (const file of served.filter(
      (candidate) => candidate.name.endsWith(".js") || candidate.name.endsWith(".mjs"),
    )) {
      expect([
        file.name,
        /(?:cdn\.jsdelivr\.net|unpkg\.com|sourceMappingURL)/.test(file.body().toString("utf8")),
      ]).toEqual([file.name, false]);
    }
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
