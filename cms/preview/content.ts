/**
 * The content files as the preview receives them: the YAML data, shaped by the zod schemas of
 * build-time/content. Only types come from the schemas: zod itself stays out of /admin/'s
 * JavaScript (cms/config.test.ts keeps the previews in step with the content files).
 */
import type { z } from "zod";
import type { consultingSchema } from "../../build-time/content/schemas/consulting";
import type { contactSchema } from "../../build-time/content/schemas/contact";
import type { expoSchema } from "../../build-time/content/schemas/expo";
import type { footerSchema } from "../../build-time/content/schemas/footer";
import type { heroSchema } from "../../build-time/content/schemas/hero";
import type { meetingSchema } from "../../build-time/content/schemas/meeting";
import type { siteSchema } from "../../build-time/content/schemas/site";
import type { solutionsSchema } from "../../build-time/content/schemas/solutions";

export type PageContent = {
  site: z.infer<typeof siteSchema>;
  hero: z.infer<typeof heroSchema>;
  solutions: z.infer<typeof solutionsSchema>;
  consulting: z.infer<typeof consultingSchema>;
  expo: z.infer<typeof expoSchema>;
  meeting: z.infer<typeof meetingSchema>;
  contact: z.infer<typeof contactSchema>;
  footer: z.infer<typeof footerSchema>;
};

export type ContentFileName = keyof PageContent;

/** The address the browser can show a picture of the content at (an uploaded one included). */
export type PictureUrl = (path: string) => string | undefined;
