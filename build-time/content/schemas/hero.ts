import { contentFile, list, text } from "../fields";
import { figure } from "./shared";

export const heroSchema = contentFile(
  {
    eyebrow: text("The small line above the headline.", "CTAA Expo 2025 · Booth #713"),
    headline: text(
      "The main headline of the page, also drawn on the sharing card. Keep it short: about 80 characters at most.",
    ),
    lead: text("The paragraph under the headline."),
    ctaLabel: text(
      "The text of the button that scrolls to the meeting form.",
      "Schedule Your Demo at CTAA",
    ),
    stats: list(
      figure,
      "The key figures shown under the headline, each a short value with a caption.",
    ),
  },
  "First screen (content/hero.yaml)",
  "The first screen of the page: headline, introduction, main button and key figures.",
);
