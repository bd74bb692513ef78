import React from "react";
import { render, screen } from "@testing-library/react";
import type { PageProps } from "gatsby";
import NotFoundPage from "./404";
import {
  contentInCapitals,
  loadContentFile,
  lowerCaseTexts,
  notFoundPageDataFromContent,
} from "../test-support/content-as-page-data";
import type { ContentFiles } from "../test-support/content-as-page-data";

type NotFoundCopy = { code: string; heading: string; homeLinkLabel: string };
const words = loadContentFile("site").notFound as NotFoundCopy;

function renderNotFound(content?: ContentFiles) {
  const props = {
    data: notFoundPageDataFromContent(content),
    location: { pathname: "/some/missing/path" },
  } as unknown as PageProps<Queries.NotFoundPageQuery>;
  return render(<NotFoundPage {...props} />);
}

describe("the not-found page", () => {
  let consoleError: jest.SpyInstance;
  beforeEach(() => {
    consoleError = jest.spyOn(console, "error").mockImplementation(() => undefined);
  });
  afterEach(() => consoleError.mockRestore());

  it("says the page was not found, links home and logs the missing path", () => {
    renderNotFound();
    expect(screen.getByText(words.code)).toBeInTheDocument();
    expect(screen.getByRole("heading", { level: 1 })).toHaveTextContent(
      `${words.code}: ${words.heading}`,
    );
    expect(screen.getByRole("link", { name: words.homeLinkLabel })).toHaveAttribute("href", "/");
    expect(consoleError).toHaveBeenCalledWith(
      "404 Error: User attempted to access non-existent route:",
      "/some/missing/path",
    );
  });

  it("has no words of its own: with every content text in capitals, nothing on it is in lower case", () => {
    const { container } = renderNotFound(contentInCapitals());
    expect(screen.getByRole("link", { name: words.homeLinkLabel.toUpperCase() })).toHaveAttribute(
      "href",
      "/",
    );
    expect(lowerCaseTexts(container)).toEqual([]);
  });
});
