import { contentFile, group, list, text } from "../fields";
import { link } from "./shared";

export const footerSchema = contentFile(
  {
    platformsHeading: text(
      "The heading of the footer column that lists the offerings.",
      "Platforms",
    ),
    resourcesHeading: text("The heading of the resources column.", "Resources"),
    paperDownload: link.describe("The download button in the resources column."),
    resources: list(link, "The links in the resources column."),
    contactHeading: text("The heading of the contact column.", "Contact"),
    milestonesLabel: text(
      "What screen readers call the list of company years.",
      "Company milestones",
    ),
    milestoneLabels: group(
      "FooterMilestoneLabels",
      {
        established: text("The caption beside the year the company was founded.", "Established"),
        transitFocusSince: text(
          "The caption beside the year the company turned to public transit.",
          "Transit focus",
        ),
        microtransitSince: text(
          "The caption beside the year the company started leading microtransit.",
          "Microtransit lead",
        ),
      },
      "The captions beside the company's years (the years are in site.yaml).",
    ),
    rightsNotice: text(
      "The words after the copyright year and company name.",
      "All rights reserved.",
    ),
    legalLinksLabel: text("What screen readers call the small links at the very bottom.", "Legal"),
    legalLinks: list(link, "The small links at the very bottom (privacy, terms, contact)."),
  },
  "Footer (content/footer.yaml)",
  "The page footer: platform list heading, resources, contact heading and legal links.",
);
