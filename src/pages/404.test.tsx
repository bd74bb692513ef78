import React from "react";
import { render, screen } from "@testing-library/react";
import type { PageProps } from "gatsby";
import NotFoundPage from "./404";
import {
  contentInCapitals,
  loadContentFile,
  lowerCaseTexts,
  notFoundPageDataFromContent,
  type ContentFiles,
} from "../test-support/content-as-page-data";

const words = loadContentFile("site").notFound as Record<string, string>;

function renderNotFound(content?: ContentFiles) {
  const props = { data: notFoundPageDataFromContent(content), location: { pathname: "/missing" } };
  return render(<NotFoundPage {...(props as unknown as PageProps<Queries.NotFoundPageQuery>)} />);
}

let consoleError: jest.SpyInstance;
beforeEach(() => {
  consoleError = jest.spyOn(console, "error").mockImplementation(() => undefined);
});
afterEach(() => consoleError.mockRestore());

it("has no words of its own: with every content text in capitals, nothing on it is in lower case", () => {
  const { container } = renderNotFound(contentInCapitals());
  const home = screen.getByRole("link", { name: words.homeLinkLabel!.toUpperCase() });
  expect(home).toHaveAttribute("href", "/");
  expect(lowerCaseTexts(container)).toEqual([]);
});
