/**
 * The CMS configuration is derived from the content schemas; these tests fail when a schema
 * holds something the derivation loses (a field, a required mark, a list minimum, a choice, a
 * pattern), and when /admin/ would load code or fonts from another host.
 */
import path from "node:path";
import { parse } from "yaml";
import { z } from "zod";
import { CONTENT_FILES } from "../build-time/content/content-files";
import { OFFERING_HEADER_STYLES } from "../src/lib/offering-header-styles";
import { cmsConfig, cmsConfigYaml, cmsSettingsFrom } from "./config";
import type { CmsField } from "./fields";
import { SECTION_PREVIEWS } from "./preview/sections";

const settings = cmsSettingsFrom({});
const files = cmsConfig(settings).collections[0]!.files;

function fileConfig(name: string) {
  const file = files.find((candidate) => candidate.name === name);
  if (!file) throw new Error(`no CMS form for ${name}`);
  return file;
}

/** The field at a path such as "solutions.offerings.headerStyle" (file, then field names). */
function field(at: string): CmsField {
  const [file, ...names] = at.split(".");
  let found: CmsField | undefined;
  let level: readonly CmsField[] | undefined = fileConfig(file!).fields;
  for (const name of names) {
    found = level?.find((candidate) => candidate.name === name);
    level = found?.fields;
  }
  if (!found) throw new Error(`no CMS field ${at}`);
  return found;
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
        const { required, hint } = field(`${spec.name}.${path}`);
        return required !== !(spec.schema.shape[path] instanceof z.ZodOptional) || !hint;
      });
      expect(unhelped).toEqual([]);
    },
  );

  it("offers an own sharing card and meeting picture as optional uploads into content/images, saying in plain words that the site draws one otherwise", () => {
    for (const picture of [field("site.shareImage"), field("meeting.image")]) {
      expect(picture).toMatchObject({
        widget: "image",
        required: false,
        label: expect.stringMatching(/^Your own .*picture \(optional\)$/),
        // Written as the path the page reads.
        media_folder: "/content/images",
        public_folder: "./images",
        choose_url: false,
        accept: expect.stringContaining(".png"),
      });
      expect(picture.hint).toMatch(/^Leave empty to use the .* the site draws for you/);
      expect(picture.hint).not.toMatch(/yaml|\.\/images|path/i);
    }
  });

  it("leaves the YAML typing advice out of the help texts (the CMS writes the YAML), and keeps the rest", () => {
    const hints = files.flatMap((file) => everyField(file.fields).map(({ hint }) => hint ?? ""));
    expect(hints.filter((hint) => /quotes|"- "/.test(hint))).toEqual([]);
    expect(field("expo.heading").hint).toBe("The heading of the expo section.");
    expect(field("solutions.offerings.highlights").hint).toBe(
      "The highlight sentences listed on the card.",
    );
    expect(field("meeting.successToast.text").hint).toBe("The sentence under the title.");
  });

  it("has a preview for every content file, in page order (the preview lists its sections itself, so zod stays out of /admin/)", () => {
    expect(Object.keys(SECTION_PREVIEWS)).toEqual(CONTENT_FILES.map((spec) => spec.name));
  });

  it.each<[string, object]>([
    ["solutions.offerings", { widget: "list", min: 1, label_singular: "Offering" }],
    ["solutions.offerings.headerStyle", { widget: "select", options: [...OFFERING_HEADER_STYLES] }],
    [
      "solutions.offerings.highlights",
      { widget: "list", min: 1, field: { widget: "string", label: "Highlight" } },
    ],
    ["meeting.imageAlt", { widget: "text", required: true }],
    ["expo.startDate", { widget: "datetime", format: "YYYY-MM-DD", time_format: false }],
  ])("%s: its widget, list minimum, choices or date format", (at, expected) => {
    expect(field(at)).toMatchObject(expected);
  });

  // A refusal in the content check's own words: e2e/tests/cms.spec.ts (the bad e-mail address).
  it.each([
    ["contact", "email", "meetings@example.com", true],
    ["contact", "email", "meetings@meridianmobility", false],
    ["contact", "phone", "(614) 555-0172", true],
    ["contact", "phone", "call us", false],
    ["contact", "address.country", "usa", false],
    ["footer", "paperDownload.href", "#", true],
    ["footer", "paperDownload.href", "#contact-form", true],
    ["footer", "paperDownload.href", "/privacy/", true],
    ["footer", "paperDownload.href", "https://example.com/a.pdf", true],
    ["footer", "paperDownload.href", "www.example.com", false],
    ["hero", "headline", "Turn microtransit into success", true],
    ["hero", "headline", "   ", false],
  ])("%s › %s: takes %j: %s", (file, at, value, accepted) => {
    const { pattern } = field(`${file}.${at}`);
    expect(new RegExp(pattern![0]).test(value)).toBe(accepted);
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

// Its name, mark and project folder as the editor sees them: e2e/tests/cms.spec.ts.
describe("the editor's first screen", () => {
  it("links to the site's address", () => {
    const config = cmsConfig(settings);
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
