import { contentFile, list, text } from "../fields";
import { figure } from "./shared";

export const consultingSchema = contentFile(
  {
    eyebrow: text("The small line above the heading.", "Structured DRT Consulting"),
    heading: text("The heading of the consulting block."),
    summary: text("The paragraph under the heading."),
    figures: list(
      figure,
      "The key figures of the consulting block, each a short value with a caption.",
    ),
    points: list(text("One point."), "The bullet points of the consulting block."),
    ctaLabel: text(
      "The text of the button that scrolls to the meeting form.",
      "Learn About Structured DRT Consulting",
    ),
  },
  "Consulting block (content/consulting.yaml)",
  "The Structured DRT Consulting block under the offering cards.",
);
