import { contentFile, list, text } from "../fields";
import { link } from "./shared";

export const footerSchema = contentFile(
  {
    platformsHeading: text("The heading of the footer column that lists the offerings.", "Platforms"),
    resourcesHeading: text("The heading of the resources column.", "Resources"),
    paperDownload: link.describe("The download button in the resources column."),
    resources: list(link, "The links in the resources column."),
    contactHeading: text("The heading of the contact column.", "Contact"),
    legalLinks: list(link, "The small links at the very bottom (privacy, terms, contact)."),
  },
  "Footer (content/footer.yaml)",
  "The page footer: platform list heading, resources, contact heading and legal links.",
);
