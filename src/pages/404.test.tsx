import React from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { screen } from "@testing-library/react";
import NotFoundPage from "./404";
import {
  editedContent,
  loadContentFile,
  lowerCaseTexts,
} from "../test-support/content-as-page-data";

const words = loadContentFile("site").notFound as Record<string, string>;

// The path it logs, in a real browser: e2e/tests/not-found.spec.ts.
it("has no words of its own: with every content text in capitals, nothing on it is in lower case", () => {
  const inCapitals = editedContent((text) => text.toUpperCase());
  const props = { data: { siteContent: inCapitals.site }, location: {} } as never;
  document.body.innerHTML = renderToStaticMarkup(React.createElement(NotFoundPage, props));
  expect(screen.getByRole("link", { name: words.homeLinkLabel!.toUpperCase() })).toBeVisible();
  expect(lowerCaseTexts(document.body)).toEqual([]);
});
