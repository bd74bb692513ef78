import React from "react";
import { render, screen, within } from "@testing-library/react";
import type { PageProps } from "gatsby";
import IndexPage from "./index";
import {
  editedContent,
  indexPageDataFromContent,
  loadContent,
  lowerCaseTexts,
  type ContentFiles,
} from "../test-support/content-as-page-data";

/**
 * These tests read content/ instead of repeating its words: editing a headline, a perk or a
 * figure in the YAML keeps them green; a page that stops showing what the YAML says fails them.
 * Section order, calls to action (scroll, focus, reduced motion) and the page without JavaScript
 * are tested in a real browser: e2e/tests/landing.spec.ts.
 */
type Copy = {
  solutions: { offerings: Array<{ name: string; highlights: string[] }> };
  meeting: { contactTitle: string };
  contact: { phone: string; email: string; booth: string };
  footer: { paperDownload: { label: string }; legalLinks: Array<{ label: string }> };
};

const content = loadContent();
const copy = content as unknown as Copy;

function renderPage(files: ContentFiles = content, buildYear?: string) {
  const props = { data: indexPageDataFromContent(files, buildYear) };
  return render(<IndexPage {...(props as unknown as PageProps<Queries.IndexPageQuery>)} />);
}

/** Text as the browser shows it: YAML's folded lines are one line on the page. */
const squish = (text: string) => text.replace(/\s+/g, " ").trim();

/**
 * Fields not shown as text in the page's body: head tags, structured data, later states, the 404
 * page, a style name, and the picture (sharp does not run in tests, so it is not rendered).
 */
const NOT_IN_BODY = [
  /^solutions\.offerings\.\d+\.headerStyle$/,
  /^meeting\.imageAlt$/,
  /^site\.(description|shortName|shareImage|shareImageAlt)$/,
  /^site\.notFound\./,
  /^expo\.(startDate|endDate|venue\.)/,
  /^meeting\.image$/,
  /^meeting\.(successToast|failureToast|toastRegionLabel)/, // the toasts: meeting-form.test.tsx
  /^meeting\.form\.submittingLabel$/,
  /^contact\.address\.country$/,
  /^expo\.meetings\./, // the booking page's schedule: build-time/booking-schedule.test.ts
];

function leaves(value: unknown, path: string): Array<[string, string]> {
  if (typeof value === "string" || typeof value === "number") return [[path, String(value)]];
  if (Array.isArray(value)) return value.flatMap((item, index) => leaves(item, `${path}.${index}`));
  if (value && typeof value === "object")
    return Object.entries(value).flatMap(([key, item]) => leaves(item, `${path}.${key}`));
  return [];
}

describe("the landing page", () => {
  it("shows one card per offering, each with its highlights", () => {
    renderPage();
    expect(screen.getAllByRole("article")).toHaveLength(copy.solutions.offerings.length);
    for (const offering of copy.solutions.offerings) {
      const card = screen
        .getByRole("heading", { level: 3, name: offering.name })
        .closest("article") as HTMLElement;
      for (const highlight of offering.highlights)
        expect(within(card).getByText(highlight)).toBeInTheDocument();
    }
  });

  it("shows every word and figure of the content files (labels and hints included)", () => {
    const { container } = renderPage();
    const attributes = [...container.querySelectorAll("*")].flatMap((element) =>
      ["alt", "title", "placeholder", "aria-label", "value", "href"].map(
        (name) => element.getAttribute(name) ?? "",
      ),
    );
    const shown = squish([container.textContent ?? "", ...attributes].join(" \n "));
    const missing = Object.entries(content)
      .flatMap(([file, data]) => leaves(data, file))
      .filter(([path]) => !NOT_IN_BODY.some((pattern) => pattern.test(path)))
      .filter(([, text]) => !shown.includes(squish(text)))
      .map(([path]) => path);
    expect(missing).toEqual([]);
  });

  it("has no words of its own: with every content text in capitals, nothing on the page is in lower case", () => {
    const { container } = renderPage(editedContent((text) => text.toUpperCase()));
    expect(lowerCaseTexts(container)).toEqual([]);
  });

  it("shows next year's expo when only the content changes: no old year, booth or event name left", () => {
    const nextYear = editedContent((text) =>
      text.replace(/2025/g, "2026").replace(/713/g, "1204").replace(/CTAA/g, "APTA"),
    );
    const { container } = renderPage(nextYear, "2026");
    expect(container.innerHTML).not.toMatch(/2025|713|CTAA/);
    expect(container.textContent).toContain("1204");
  });

  it("links the contact details and the footer's links", () => {
    renderPage();
    const contact = screen
      .getByRole("heading", { name: copy.meeting.contactTitle })
      .closest("section") as HTMLElement;
    const phoneLink = within(contact).getByRole("link", { name: copy.contact.phone });
    expect(phoneLink.getAttribute("href")).toMatch(/^tel:\+?\d{7,15}$/);
    expect(phoneLink.getAttribute("href")?.replace(/\D/g, "")).toBe(
      copy.contact.phone.replace(/\D/g, ""),
    );
    expect(within(contact).getByRole("link", { name: copy.contact.email })).toHaveAttribute(
      "href",
      `mailto:${copy.contact.email}`,
    );
    expect(within(contact).getByText(`#${copy.contact.booth}`)).toBeInTheDocument();
    const footer = screen.getByRole("contentinfo");
    for (const { label } of copy.footer.legalLinks)
      expect(within(footer).getByRole("link", { name: label })).toBeInTheDocument();
    expect(
      within(footer).getByRole("link", { name: copy.footer.paperDownload.label }),
    ).toBeInTheDocument();
  });
});
