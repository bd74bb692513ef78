/**
 * The content files the page reads: which section each drives, its schema, and the checks
 * beyond the schema. The order is the order of the page.
 */
import type { z } from "zod";
import { meetingsChecks } from "../booking-schedule";
import type { Finding } from "./messages";
import {
  dateOrder,
  duplicates,
  pictureDescription,
  pictureExists,
  tooLong,
  type FileCheckContext,
} from "./rules";
import { consultingSchema } from "./schemas/consulting";
import { contactSchema } from "./schemas/contact";
import { expoSchema } from "./schemas/expo";
import { footerSchema } from "./schemas/footer";
import { heroSchema } from "./schemas/hero";
import { meetingSchema } from "./schemas/meeting";
import { siteSchema } from "./schemas/site";
import { solutionsSchema } from "./schemas/solutions";

export type ContentFileSpec = {
  /** File name without ".yaml"; also the name of its JSON Schema. */
  name: string;
  /** Which part of the page the file drives. */
  section: string;
  schema: z.ZodObject;
  checks?: (data: Record<string, unknown>, context: FileCheckContext) => Finding[];
};

const BUTTON = "long button labels wrap onto two lines on phones.";
const FIGURE = "long figures may not fit their box on phones.";
const SAVED = "because the value is what a meeting request saves.";

export const CONTENT_FILES: readonly ContentFileSpec[] = [
  {
    name: "site",
    section: "The whole page: browser tab, search results, sharing card, footer history",
    schema: siteSchema,
    checks: (data, context) => [
      ...tooLong(
        data,
        "description",
        160,
        "search engines cut descriptions off after about 160 characters.",
      ),
      ...pictureExists(data, "shareImage", context, {
        width: 1200,
        height: 630,
        purpose: "sharing cards",
      }),
      ...pictureDescription(data, "shareImageAlt"),
    ],
  },
  {
    name: "hero",
    section: "The first screen: headline, introduction, main button, key figures",
    schema: heroSchema,
    checks: (data) => [
      ...tooLong(data, "headline", 80, "a long headline fills the whole first screen on phones."),
      ...tooLong(data, "ctaLabel", 40, BUTTON),
      ...tooLong(data, "stats[].value", 12, FIGURE),
    ],
  },
  {
    name: "solutions",
    section: "Platform Solutions: the offering cards",
    schema: solutionsSchema,
    checks: (data) => [
      ...duplicates(data, "offerings", "name", "Each offering needs its own name."),
      ...tooLong(data, "offerings[].subtitle", 60, "long subtitles wrap badly on phones."),
      ...tooLong(data, "ctaLabel", 40, BUTTON),
    ],
  },
  {
    name: "consulting",
    section: "The Structured DRT Consulting block under the cards",
    schema: consultingSchema,
    checks: (data) => [
      ...tooLong(data, "figures[].value", 12, FIGURE),
      ...tooLong(data, "ctaLabel", 40, BUTTON),
    ],
  },
  {
    name: "expo",
    section: "Visit us at the expo: dates, venue, perks, leaders",
    schema: expoSchema,
    checks: (data) => [
      ...dateOrder(data, "startDate", "endDate"),
      ...tooLong(data, "ctaLabel", 40, BUTTON),
      ...meetingsChecks(data),
    ],
  },
  {
    name: "meeting",
    section: "The meeting-request section: heading, picture, form choices",
    schema: meetingSchema,
    checks: (data, context) => [
      ...pictureExists(data, "image", context),
      ...pictureDescription(data, "imageAlt"),
      ...duplicates(data, "productOptions", "value", `Each product needs its own value, ${SAVED}`),
      ...duplicates(
        data,
        "meetingTimeOptions",
        "value",
        `Each meeting time needs its own value, ${SAVED}`,
      ),
    ],
  },
  {
    name: "contact",
    section: "Contact details beside the form and in the footer",
    schema: contactSchema,
  },
  { name: "footer", section: "The footer: resources and legal links", schema: footerSchema },
];

export function contentFileSpec(name: string): ContentFileSpec | undefined {
  return CONTENT_FILES.find((spec) => spec.name === name);
}
