import { contentFile, group, imageAlt, ownPicture, text, year } from "../fields";

export const siteSchema = contentFile(
  {
    companyName: text(
      "The company's full name, used in the browser tab, search results, the footer and on the sharing card.",
      "Meridian Mobility Systems",
    ),
    shortName: text(
      "A shorter name for tight spaces, such as the page header and the booth in the meeting illustration.",
      "Meridian Mobility",
    ),
    description: text(
      "One or two sentences that search engines and link previews show under the page title. About 160 characters at most, or search engines cut it off.",
    ),
    history: group(
      "CompanyHistory",
      {
        established: year("The year the company was founded.", "1964"),
        transitFocusSince: year("The year the company started to focus on public transit.", "2010"),
        microtransitSince: year("The year the company started leading microtransit.", "2007"),
        summary: text("A short paragraph about the company's history, shown in the footer."),
      },
      "Company history facts shown in the footer.",
    ),
    shareImage: ownPicture(
      "Leave empty to use the sharing card the site draws for you, shown when the page is shared on LinkedIn, X, Slack or by e-mail. It shows the expo's name, booth, dates and city (from the expo section), the headline (from the first screen) and the company name, and changes with them. Choose a picture here only to use your own instead: 1200 × 630 pixels.",
    ),
    shareImageAlt: imageAlt(
      "shareImage",
      "{companyName}, {eventName}, {booth}, {dates}, {place}, {headline}",
    ),
    skipLinkLabel: text(
      "The link keyboard users meet first, which jumps over the header to the page's content.",
      "Skip to main content",
    ),
    notFound: group(
      "NotFoundPageCopy",
      {
        title: text(
          "The browser-tab title of the page shown for an address that does not exist.",
          "Page not found",
        ),
        code: text("The big number at the top of that page.", "404"),
        heading: text("The heading of that page.", "Oops! Page not found"),
        homeLinkLabel: text("The link back to the landing page.", "Return to Home"),
      },
      "The page shown for an address that does not exist.",
    ),
  },
  "Company facts and sharing text (content/site.yaml)",
  "Company facts, search-engine description, the picture used when the page is shared, and the words used on every page (skip link, not-found page).",
);
