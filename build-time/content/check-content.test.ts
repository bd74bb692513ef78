/**
 * Each fixture under __fixtures__/<case>/ holds one or two broken content files; each test
 * asserts the exact lines an editor would read. The real content/ must have no errors.
 */
import fs from "node:fs";
import path from "node:path";
import { checkContentDirectory, checkContentFile } from "./check-content";
import { CONTENT_FILES } from "./content-files";
import { validContentFolderPerTest } from "./content-folder.test-support";
import { formatProblem, type ContentProblem } from "./messages";

const FIXTURES = path.join(__dirname, "__fixtures__");
const PROJECT_CONTENT = path.join(__dirname, "..", "..", "content");

const NOT_A_LINK =
  'Expected "#" (a placeholder), an in-page anchor like "#contact-form", a site path like "/privacy/", or a full address starting with https://, http:// or mailto:.';

function lines(problems: readonly ContentProblem[]): string[] {
  return problems.map((problem) => `${problem.severity}: ${formatProblem(problem)}`);
}

/** The lines for every content file in the fixture folder, in page order. */
function linesFor(caseName: string): string[] {
  const dir = path.join(FIXTURES, caseName);
  const specs = CONTENT_FILES.filter((spec) => fs.existsSync(path.join(dir, `${spec.name}.yaml`)));
  return lines(specs.flatMap((spec) => checkContentFile(dir, spec, "content").problems));
}

describe("each kind of content problem gives one clear line", () => {
  it.each<[string, string, string[]]>([
    [
      "malformed e-mail, phone and country code",
      "contact-formats",
      [
        `error: content/contact.yaml:7 › address › country: "USA" is not a two-letter country code. Expected a two-letter country code in capitals, such as US or CA.`,
        `error: content/contact.yaml:8 › phone: "555-0172 ext" does not look like a phone number. Expected a phone number of 7 to 15 digits, written like (614) 555-0172 or +1 614 555 0172.`,
        `error: content/contact.yaml:9 › email: "meetings(at)meridianmobility.com" is not an e-mail address. Expected an e-mail address such as meetings@example.com.`,
      ],
    ],
    [
      "duplicate product values and meeting-time values",
      "duplicates",
      [
        `error: content/meeting.yaml:15 › product option "OptiRun Core" › value: "optirun" is already used by productOptions item 2. Each product needs its own value, because the value is what a meeting request saves.`,
        `error: content/meeting.yaml:28 › meeting time option "Day 2 Afternoon" › value: "day1-morning" is already used by meetingTimeOptions item 1. Each meeting time needs its own value, because the value is what a meeting request saves.`,
      ],
    ],
    [
      "an empty file",
      "empty-file",
      [
        `error: content/hero.yaml › YAML syntax error: the file is empty. It must contain the fields listed in the guide.`,
      ],
    ],
    [
      "header colour styles the page does not define",
      "header-style",
      [
        `error: content/solutions.yaml:13 › offering "OptiRun" › headerStyle: "teel" is not a colour style the page defines. Did you mean "teal"? Use one of: ocean, teal, violet, amber, slate.`,
        `error: content/solutions.yaml:18 › offering "Trip Exchange" › headerStyle: "red" is not a colour style the page defines. Use one of: ocean, teal, violet, amber, slate.`,
        `error: content/solutions.yaml:21 › offerings item 4 › name: is missing. Expected text, e.g. "OptiRun".`,
        `error: content/solutions.yaml:22 › offerings item 4 › headerStyle: is empty. Use one of: ocean, teal, violet, amber, slate.`,
        `error: content/solutions.yaml:23 › offerings item 4 › highlights: has no items. Add at least one, each on its own line starting with "- ".`,
      ],
    ],
    [
      "pictures in a format the page cannot resize, or on the web",
      "image-formats",
      [
        `error: content/site.yaml:15 › shareImage: "https://cdn.example.com/share-card.png" is a web address; pictures must be files saved in content/images. Expected the path of a picture next to this file, such as ./images/share-card.png.`,
        `error: content/meeting.yaml:4 › image: "./images/meeting-illustration.svg" is a .svg file; the page can only resize .png, .jpg, .jpeg, .webp or .avif pictures for each screen. Expected the path of a picture next to this file, such as ./images/share-card.png.`,
      ],
    ],
    [
      "pictures that do not exist, wrong capitals, empty or useless alt text",
      "images",
      [
        `error: content/site.yaml:15 › shareImage: "./images/Share-Card.png" does not match the capitals of the file name "share-card.png". Write it exactly as the file is named.`,
        `warning: content/site.yaml:16 › shareImageAlt: "Image of our share card" starts with "Image of"; screen readers already announce a picture. Describe what the picture shows, in a sentence.`,
        `error: content/meeting.yaml:4 › image: "./images/meeting.png" does not exist. Pictures in that folder: meeting-illustration.png, share-card.png.`,
        `error: content/meeting.yaml:5 › imageAlt: is empty. Expected text.`,
      ],
    ],
    [
      'text cut off by an unquoted " #", and an expo that ends before it starts',
      "inline-comment",
      [
        `error: content/expo.yaml:3 › heading: YAML reads " #713" as a note for editors and drops it, so the page would show only "Visit us at booth". Put the whole text in quotes: "Visit us at booth #713".`,
        `error: content/expo.yaml:8 › endDate: "2025-05-18" is before startDate "2025-05-21". Expected the last day on or after the first day.`,
        `error: content/expo.yaml:16 › perk "Live demos" › title: YAML reads " # of every platform" as a note for editors and drops it, so the page would show only "Live demos". Put the whole text in quotes: "Live demos # of every platform".`,
      ],
    ],
    [
      "links the page cannot use",
      "links",
      [
        `error: content/footer.yaml:6 › paperDownload › href: "www.meridianmobility.com/drt-paper.pdf" is missing its start: write https://www.meridianmobility.com/drt-paper.pdf. ${NOT_A_LINK}`,
        `error: content/footer.yaml:9 › resource link "Case Studies" › href: "case-studies" is not a link the page can use. ${NOT_A_LINK}`,
        `error: content/footer.yaml:11 › resource link "Implementation Guides" › href: "https://" is not a link the page can use. ${NOT_A_LINK}`,
        `error: content/footer.yaml:13 › resource link "ROI Calculator" › href: "/roi calculator/" is not a link the page can use. ${NOT_A_LINK}`,
        `error: content/footer.yaml:17 › legal link "Privacy Policy" › href: "javascript:alert(1)" is not a link the page can use. ${NOT_A_LINK}`,
        `error: content/footer.yaml:19 › legal link "Terms of Service" › href: "mailto:legal" is not a link the page can use. ${NOT_A_LINK}`,
      ],
    ],
    [
      "missing, empty and blank required fields",
      "missing-and-empty",
      [
        `error: content/hero.yaml › headline: is missing. Expected text.`,
        `error: content/hero.yaml:2 › eyebrow: has no value. Expected text, e.g. "CTAA Expo 2025 · Booth #713".`,
        `error: content/hero.yaml:3 › lead: is empty. Expected text.`,
        `error: content/hero.yaml:4 › ctaLabel: is empty (only spaces). Expected text, e.g. "Schedule Your Demo at CTAA".`,
        `error: content/hero.yaml:8 › figure "7+" › label: is missing. Expected text, e.g. "daily rides on one regional service".`,
      ],
    ],
    [
      "a file holding a list instead of fields",
      "not-a-mapping",
      [
        `error: content/hero.yaml › the file must contain fields written as "name: value" on separate lines, but it contains a list.`,
      ],
    ],
    [
      "a field written twice",
      "syntax-duplicate-key",
      [
        `error: content/contact.yaml:10:1 › YAML syntax error: this field name appears twice in the same place. Keep only one of them.`,
      ],
    ],
    [
      "a YAML syntax error names its line and column",
      "syntax-indentation",
      [
        `error: content/hero.yaml:4:6 › YAML syntax error: this line is indented differently from the lines around it, or a value contains ": ". Line up the field with its neighbours, and put text that contains a colon or starts with @, \`, %, " or ' in quotes.`,
      ],
    ],
    [
      "a Tab used for indentation",
      "syntax-tab",
      [
        `error: content/footer.yaml:5:1 › YAML syntax error: a Tab key was used to indent this line. Indent with spaces only.`,
      ],
    ],
    [
      "unknown fields, with the closest known name",
      "unknown-fields",
      [
        `error: content/solutions.yaml:2 › heding: is not a field the page knows here. Did you mean "heading"? (heading is required and missing.) Fields allowed here: heading, intro, ctaLabel, ctaAboutWord, offerings.`,
        `error: content/solutions.yaml:7 › offering "MobilityDR" › subtitel: is not a field the page knows here. Did you mean "subtitle"? (subtitle is required and missing.) Fields allowed here: name, subtitle, headerStyle, highlights.`,
        `error: content/solutions.yaml:13 › offering "OptiRun" › HeaderStyle: is not a field the page knows here. Did you mean "headerStyle"? (headerStyle is required and missing.) Fields allowed here: name, subtitle, headerStyle, highlights.`,
        `error: content/solutions.yaml:14 › offering "OptiRun" › colour: is not a field the page knows here. Fields allowed here: name, subtitle, headerStyle, highlights.`,
      ],
    ],
    [
      "warnings that do not stop the build",
      "warnings",
      [
        `warning: content/site.yaml:4 › description: is 186 characters long; search engines cut descriptions off after about 160 characters. Aim for 160 or fewer.`,
        `warning: content/site.yaml:15 › shareImage: the picture is 600 × 400 pixels; sharing cards look best at 1200 × 630, other sizes get cropped or blurred.`,
        `warning: content/hero.yaml:3 › headline: is 106 characters long; a long headline fills the whole first screen on phones. Aim for 80 or fewer.`,
        `warning: content/hero.yaml:5 › ctaLabel: is 63 characters long; long button labels wrap onto two lines on phones. Aim for 40 or fewer.`,
        `warning: content/hero.yaml:9 › figure "daily rides" › value: is 17 characters long; long figures may not fit their box on phones. Aim for 12 or fewer.`,
        `warning: content/solutions.yaml:7 › offering "OptiRun" › subtitle: is 75 characters long; long subtitles wrap badly on phones. Aim for 60 or fewer.`,
      ],
    ],
    [
      "values of the wrong type; an unquoted booth number stays text",
      "wrong-types",
      [
        `error: content/site.yaml:3 › shortName: true is read as yes/no. Put it in quotes, "true", if it is meant as text. Expected text, e.g. "Meridian Mobility".`,
        `error: content/site.yaml:6 › history › established: "1964" is in quotes, so it is read as text. Remove the quotes. Expected a four-digit year such as 1964, without quotes.`,
        `error: content/site.yaml:7 › history › transitFocusSince: 2010.5 is not a whole number. Expected a four-digit year such as 2010, without quotes.`,
        `error: content/site.yaml:8 › history › microtransitSince: 207 is not a believable year. Expected a four-digit year such as 2007.`,
        `error: content/site.yaml:9 › history › summary: is a list. Expected text.`,
        `error: content/consulting.yaml:10 › points: is a single piece of text, not a list. Put a space after each "-". Expected a list, with each text on its own line starting with "- ".`,
        `error: content/contact.yaml:2 › address: is the text "1400 Commerce Parkway, Columbus, OH". Expected a group of fields on indented lines below it: street, city, region, postalCode, country.`,
      ],
    ],
  ])("%s", (_title, caseName, expected) => {
    expect(linesFor(caseName)).toEqual(expected);
  });
});

// The valid fixture passes without a warning: tools/check-content.test.ts and plugins/content-yaml.
describe("checking the whole content folder", () => {
  const folder = validContentFolderPerTest();

  it("the real content/ folder has no errors", () => {
    const result = checkContentDirectory(PROJECT_CONTENT);
    expect(lines(result.errors)).toEqual([]);
    expect(result.filesChecked).toBe(8);
  });

  // Every error at once in page order: pipeline.test.ts; with a summary: tools/check-content.test.ts.
  it("reports a missing file, a file the page does not read, a misspelt picture and a booth number that differs", () => {
    fs.renameSync(folder.file("hero.yaml"), folder.file("heros.yaml"));
    folder.edit("contact.yaml", 'booth: "713"', 'booth: "714"');
    folder.edit("meeting.yaml", "meeting-illustration.png", "meeting-ilustration.png");
    const result = checkContentDirectory(folder.dir());
    expect(lines(result.errors)).toEqual([
      `error: content/hero.yaml › the file is missing. The page needs it for: The first screen: headline, introduction, main button, key figures. Is "heros.yaml" meant to be this file? Rename it to hero.yaml.`,
      `error: content/meeting.yaml:4 › image: "./images/meeting-ilustration.png" does not exist. Did you mean "./images/meeting-illustration.png"? Pictures in that folder: meeting-illustration.png, share-card.png.`,
    ]);
    expect(lines(result.warnings)).toEqual([
      `warning: content/contact.yaml:10 › booth: "714" differs from the booth in content/expo.yaml ("713"). Visitors see both; make them the same.`,
      `warning: content/heros.yaml › the page does not read this file, so its text will not appear. Did you mean hero.yaml? The page reads: site.yaml, hero.yaml, solutions.yaml, consulting.yaml, expo.yaml, meeting.yaml, contact.yaml, footer.yaml.`,
    ]);
  });

  it("never shows programmer wording such as zod's issue codes", () => {
    const jargon =
      /invalid_type|invalid_value|unrecognized_keys|Invalid input|Unrecognized key|received|ZodError|undefined|\[object /;
    const all = fs.readdirSync(FIXTURES).flatMap(linesFor);
    expect(all.length).toBeGreaterThan(40);
    expect(all.filter((line) => jargon.test(line))).toEqual([]);
  });
});
