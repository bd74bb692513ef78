/**
 * The facts the drawn pictures show, taken from the content files (no word of them is written in
 * code), and the placeholders the pictures' descriptions (alt texts) may use so that they follow
 * the same facts: "Expo booth numbered {booth}" reads "Expo booth numbered 512" after the booth
 * changes in expo.yaml.
 */

export type PictureFacts = {
  companyName: string;
  shortName: string;
  eventName: string;
  booth: string;
  /** The word the page uses for a booth (contact.yaml labels.booth), e.g. "Booth". */
  boothLabel: string;
  /** The expo's dates as a range, e.g. "May 18 – 21, 2025". */
  dates: string;
  /** The expo's city and region, e.g. "Palm Springs, CA". */
  place: string;
  headline: string;
};

/** The parts of the content files the pictures draw from (the shapes of the content model). */
export type PictureContent = {
  site: { companyName: string; shortName: string };
  hero: { headline: string };
  expo: {
    eventName: string;
    booth: string;
    startDate: string;
    endDate: string;
    venue: { city: string; region: string };
  };
  contact: { labels: { booth: string } };
};

/** en-US like the page (og:locale en_US); the dates are calendar days, so read as UTC. */
const DATE_RANGE = new Intl.DateTimeFormat("en-US", {
  month: "long",
  day: "numeric",
  year: "numeric",
  timeZone: "UTC",
});

export function formatDates(startDate: string, endDate: string): string {
  const start = new Date(`${startDate}T00:00:00Z`);
  const end = new Date(`${endDate}T00:00:00Z`);
  if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime()))
    return startDate === endDate ? startDate : `${startDate} – ${endDate}`;
  const range = end < start ? DATE_RANGE.format(start) : DATE_RANGE.formatRange(start, end);
  // Intl puts thin and narrow no-break spaces around the dash; plain spaces read (and draw) the same everywhere.
  return range.replace(/[\u2009\u202f]/g, " ");
}

function squish(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

export function pictureFacts(content: PictureContent): PictureFacts {
  const { site, hero, expo, contact } = content;
  return {
    companyName: squish(site.companyName),
    shortName: squish(site.shortName),
    eventName: squish(expo.eventName),
    booth: squish(expo.booth),
    boothLabel: squish(contact.labels.booth),
    dates: formatDates(expo.startDate.trim(), expo.endDate.trim()),
    place: `${squish(expo.venue.city)}, ${squish(expo.venue.region)}`,
    headline: squish(hero.headline),
  };
}

export const PLACEHOLDERS = [
  "companyName",
  "shortName",
  "eventName",
  "booth",
  "dates",
  "place",
  "headline",
] as const satisfies readonly (keyof PictureFacts)[];
export type Placeholder = (typeof PLACEHOLDERS)[number];

const PLACEHOLDER = /\{([^{}\s]*)\}/g;

function isPlaceholder(name: string): name is Placeholder {
  return (PLACEHOLDERS as readonly string[]).includes(name);
}

/** Names in braces that are not placeholders, e.g. ["boot"] for "booth {boot}". */
export function unknownPlaceholders(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)]
    .map((match) => match[1] ?? "")
    .filter((name) => !isPlaceholder(name));
}

/** `text` with each {placeholder} replaced by its fact; anything else in braces stays as written. */
export function fillPlaceholders(text: string, facts: PictureFacts): string {
  return text.replace(PLACEHOLDER, (whole, name: string) =>
    isPlaceholder(name) ? facts[name] : whole,
  );
}
