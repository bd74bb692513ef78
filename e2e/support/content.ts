import fs from "node:fs";
import path from "node:path";
import { parse } from "yaml";
import type { z } from "zod";
import { consultingSchema } from "../../build-time/content/schemas/consulting";
import { contactSchema } from "../../build-time/content/schemas/contact";
import { expoSchema } from "../../build-time/content/schemas/expo";
import { footerSchema } from "../../build-time/content/schemas/footer";
import { heroSchema } from "../../build-time/content/schemas/hero";
import { meetingSchema } from "../../build-time/content/schemas/meeting";
import { siteSchema } from "../../build-time/content/schemas/site";
import { solutionsSchema } from "../../build-time/content/schemas/solutions";
import { fillPlaceholders, pictureFacts } from "../../src/lib/pictures/picture-facts";
import { PROJECT_ROOT } from "../../tools/lib/test-build";

/** Reads a content/*.yaml file, typed by its schema: the page must show what the YAML says. */
function readYaml<T extends z.ZodType>(name: string, schema: T): z.output<T> {
  return schema.parse(
    parse(fs.readFileSync(path.join(PROJECT_ROOT, "content", `${name}.yaml`), "utf8")),
  );
}

export const content = {
  site: readYaml("site", siteSchema),
  hero: readYaml("hero", heroSchema),
  solutions: readYaml("solutions", solutionsSchema),
  consulting: readYaml("consulting", consultingSchema),
  expo: readYaml("expo", expoSchema),
  meeting: readYaml("meeting", meetingSchema),
  contact: readYaml("contact", contactSchema),
  footer: readYaml("footer", footerSchema),
};

/** The pictures' descriptions as the page shows them: their {placeholders} filled from the content. */
export const pictureDescriptions = {
  meeting: fillPlaceholders(content.meeting.imageAlt, pictureFacts(content)),
  shareCard: fillPlaceholders(content.site.shareImageAlt, pictureFacts(content)),
};

/** Text with the YAML's folded whitespace collapsed, as the browser renders it. */
export function squish(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** `text` as a regular expression that matches it literally. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
