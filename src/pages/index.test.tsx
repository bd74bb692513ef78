import React from "react";
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { PageProps } from "gatsby";
import IndexPage from "./index";
import { indexPageDataFromContent, loadContentFile } from "../test-support/content-as-page-data";

const ctaLabels = ["Schedule Your Demo at CTAA", "Learn More", "Learn About Structured DRT Consulting", "Schedule Your Meeting Now"];

function renderPage() {
  const props = { data: indexPageDataFromContent() } as unknown as PageProps<Queries.IndexPageQuery>;
  return render(<IndexPage {...props} />);
}

function mockReducedMotion(reduce: boolean) {
  window.matchMedia = jest.fn().mockImplementation((query: string) => ({
    matches: reduce && query.includes("reduce"),
    media: query,
    addEventListener: jest.fn(),
    removeEventListener: jest.fn(),
  }));
}

describe("the landing page", () => {
  let scrollIntoView: jest.Mock;
  beforeEach(() => {
    scrollIntoView = jest.fn();
    Element.prototype.scrollIntoView = scrollIntoView;
    mockReducedMotion(false);
  });

  it("shows hero, solutions, expo, form and footer in that order", () => {
    renderPage();
    const headings = screen.getAllByRole("heading", { level: 2 }).map((heading) => heading.textContent);
    const hero = screen.getByRole("heading", { level: 1 });
    expect(hero).toHaveTextContent("Turn microtransit from a costly experiment into sustainable success");
    const order = ["Platform solutions proven in daily service", "Visit us at booth #713", "Schedule Your CTAA Meeting"].map((text) =>
      headings.indexOf(text),
    );
    expect(order.every((position) => position >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    const form = document.getElementById("contact-form") as HTMLElement;
    expect(within(form).getByRole("heading", { name: "Book Your Meeting" })).toBeInTheDocument();
    expect(within(form).getByRole("heading", { name: "Contact Information" })).toBeInTheDocument();
    expect(within(form).getByText("Book your personalized demonstration and consultation at Booth #713")).toBeInTheDocument();
    const footer = screen.getByRole("contentinfo");
    expect(form.compareDocumentPosition(footer) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it("shows five offering cards with their highlights and the consulting block", () => {
    renderPage();
    const offerings = loadContentFile("solutions").offerings as Array<{ name: string; highlights: string[] }>;
    expect(offerings).toHaveLength(5);
    for (const offering of offerings) {
      const card = screen.getByRole("heading", { level: 3, name: offering.name }).closest("article") as HTMLElement;
      for (const highlight of offering.highlights) expect(within(card).getByText(highlight)).toBeInTheDocument();
    }
    expect(screen.getByRole("heading", { name: /Design demand-responsive service/ })).toBeInTheDocument();
  });

  it.each([
    "2,000", "45 vehicles", "7 trips per vehicle service hour", "8 service configurations", "$1M", "15+ year",
    "8-step", "$7.5M", "$5 per trip", "17%", "11%", "320", "80%", "30-minute", "40+ years", "1964", "2010", "2007",
  ])("shows the marketing figure %s", (figure) => {
    const { container } = renderPage();
    expect(container.textContent).toContain(figure);
  });

  it("scrolls smoothly to the form from every call to action and moves focus there", async () => {
    const user = userEvent.setup();
    renderPage();
    const links = ctaLabels.flatMap((label) => screen.getAllByRole("link", { name: new RegExp(`^${label}`) }));
    expect(links).toHaveLength(3 + 5);
    for (const link of links) {
      scrollIntoView.mockClear();
      expect(link).toHaveAttribute("href", "#contact-form");
      await user.click(link);
      expect(scrollIntoView).toHaveBeenCalledTimes(1);
      expect(scrollIntoView.mock.contexts[0]).toBe(document.getElementById("contact-form"));
      expect(scrollIntoView).toHaveBeenCalledWith({ behavior: "smooth", block: "start" });
      expect(screen.getByRole("heading", { level: 2, name: "Schedule Your CTAA Meeting" })).toHaveFocus();
    }
  });

  it("jumps without animation when the visitor prefers reduced motion", async () => {
    mockReducedMotion(true);
    const user = userEvent.setup();
    renderPage();
    await user.click(screen.getByRole("link", { name: /^Schedule Your Demo at CTAA/ }));
    expect(scrollIntoView).toHaveBeenCalledWith({ behavior: "auto", block: "start" });
  });

  it("lists the contact details and the company history", () => {
    renderPage();
    const contact = screen.getByRole("heading", { name: "Contact Information" }).closest("section") as HTMLElement;
    expect(within(contact).getByRole("link", { name: "(614) 555-0172" })).toHaveAttribute("href", "tel:6145550172");
    expect(within(contact).getByRole("link", { name: "meetings@meridianmobility.com" })).toHaveAttribute("href", "mailto:meetings@meridianmobility.com");
    expect(within(contact).getByText("#713")).toBeInTheDocument();
    const footer = screen.getByRole("contentinfo");
    expect(within(footer).getByText(/Established in 1964/)).toBeInTheDocument();
    for (const name of ["Privacy Policy", "Terms of Service", "Contact"]) expect(within(footer).getByRole("link", { name })).toBeInTheDocument();
    expect(within(footer).getByRole("link", { name: "Download the Structured DRT Paper" })).toBeInTheDocument();
  });
});
