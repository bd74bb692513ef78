/** Field names as an editor reads them: "perksHeading" → "Perks heading", or a plain label here. */
import { ITEM_NOUNS } from "../build-time/content/messages";

const PLAIN_LABELS: Readonly<Record<string, string>> = {
  ctaLabel: "Button text",
  eyebrow: "Small line above the heading",
  lead: "Introduction",
  href: "Link target",
  imageAlt: "Picture description",
  image: "Your own picture (optional)",
  shareImage: "Your own sharing picture (optional)",
  shareImageAlt: "Sharing picture description",
  headerStyle: "Header colour",
  stats: "Key figures",
  paperDownload: "Paper download button",
  legalLinks: "Legal links",
  bio: "About",
  ctaAboutWord: "Word between button text and offering name",
  successToast: "Message after sending",
  failureToast: "Message when sending fails",
  toastRegionLabel: "Name of the message corner (screen readers)",
  submitLabel: "Send button text",
  submittingLabel: "Send button text while sending",
  requiredNote: "Small print under the send button",
  notFound: "Page not found",
  code: "Big number",
  skipLinkLabel: "Skip link text (keyboard users)",
  homeLinkLabel: "Link back to the landing page",
  milestonesLabel: "Name of the company years list (screen readers)",
  legalLinksLabel: "Name of the legal links (screen readers)",
  productsLegend: "Title above the product choices",
  meetingTimeLegend: "Title above the meeting times",
  fleetSizePlaceholder: "Example in the empty fleet-size field",
  fullNameHint: "Message when the name is only spaces",
  organizationHint: "Message when the organization is only spaces",
  form: "Words on the form",
  labels: "Captions",
  meetings: "Meetings staff book (the booking page)",
  lengthMinutes: "Meeting length in minutes",
  capacity: "Meetings at the same time",
};

/** Fields whose text usually runs over one line: edited in a multi-line box. */
export const LONG_TEXT_FIELDS: ReadonlySet<string> = new Set(
  "lead intro summary description bio imageAlt shareImageAlt".split(" "),
);

function humanize(name: string): string {
  const words = name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The label of a field; the single field of a plain list (highlights, points) is named after its item. */
export function fieldLabel(name: string, listName?: string): string {
  if (listName !== undefined) return itemLabel(listName);
  return PLAIN_LABELS[name] ?? humanize(name);
}

export function itemLabel(listName: string): string {
  return humanize(ITEM_NOUNS[listName] ?? listName);
}
