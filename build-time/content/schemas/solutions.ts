import { OFFERING_HEADER_STYLES } from "../../../src/lib/offering-header-styles";
import { contentFile, group, headerStyle, list, text } from "../fields";

export const offering = group(
  "Offering",
  {
    name: text("The offering's name, shown as the card title.", "OptiRun"),
    subtitle: text(
      "One short line under the name. About 60 characters at most, or it wraps badly on phones.",
      "Demand-response management platform",
    ),
    headerStyle: headerStyle(
      `The colour of the card's header. One of: ${OFFERING_HEADER_STYLES.join(", ")}.`,
    ),
    highlights: list(
      text("One highlight sentence."),
      "The highlight sentences listed on the card.",
      'One per line, starting with "- ".',
    ),
  },
  "One offering card.",
);

export const solutionsSchema = contentFile(
  {
    heading: text("The heading of the Platform Solutions section."),
    intro: text("The paragraph under the heading."),
    ctaLabel: text(
      "The text of the button under the cards, which scrolls to the meeting form.",
      "Learn More",
    ),
    ctaAboutWord: text(
      "Screen readers read each card's button as its text, this word and the offering's name (\"Learn More about MobilityDR\"), so the buttons can be told apart.",
      "about",
    ),
    offerings: list(offering, "The offering cards, in the order they appear on the page."),
  },
  "Platform solutions (content/solutions.yaml)",
  "The Platform Solutions section: heading, introduction and one card per offering.",
);
