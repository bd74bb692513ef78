import { contentFile, countryCode, group, isoDate, list, text } from "../fields";
import { meetingsBlock } from "./meetings";

export const expoSchema = contentFile(
  {
    eyebrow: text("The small line above the heading.", "CTAA Expo 2025"),
    heading: text(
      "The heading of the expo section.",
      undefined,
      'Put it in quotes if it contains " #", e.g. "Visit us at booth #713".',
    ),
    intro: text("The paragraph under the heading."),
    eventName: text(
      "The name of the expo, used in the page, on the sharing card and in search engines' event listing.",
      "CTAA Expo 2025",
    ),
    booth: text(
      "The booth number, also drawn on the sharing card and on the booth in the meeting illustration.",
      "713",
    ),
    startDate: isoDate(
      "The first day of the expo (used on the sharing card and in search engines' event listing).",
      "Write it as YYYY-MM-DD.",
    ),
    endDate: isoDate("The last day of the expo.", "Write it as YYYY-MM-DD."),
    venue: group(
      "ExpoVenue",
      {
        name: text("The name of the venue.", "Palm Springs Convention Center"),
        city: text("The city of the venue (also on the sharing card).", "Palm Springs"),
        region: text("The state or region, e.g. CA.", "CA"),
        country: countryCode("The country of the venue as a two-letter code."),
      },
      "Where the expo takes place (used in search engines' event listing).",
    ),
    perksHeading: text("The heading above the list of what visitors get at the booth."),
    perks: list(
      group(
        "ExpoPerk",
        {
          title: text("The perk's short title.", "Live demos"),
          description: text("One sentence about the perk."),
        },
        "One perk of visiting the booth.",
      ),
      "What visitors get at the booth.",
    ),
    leadersHeading: text("The heading above the leaders."),
    leaders: list(
      group(
        "ExpoLeader",
        {
          role: text(
            "The leader's role (the page names leaders by role only).",
            "Chief Technology Officer",
          ),
          bio: text("One sentence about the leader."),
        },
        "One leader at the booth.",
      ),
      "The leaders visitors can meet at the booth.",
    ),
    ctaLabel: text(
      "The text of the button that scrolls to the meeting form.",
      "Schedule Your Meeting Now",
    ),
    meetings: meetingsBlock,
  },
  "Expo section (content/expo.yaml)",
  "The Visit us at the expo section: dates, venue, booth, perks and leaders.",
);
