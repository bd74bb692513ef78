import React from "react";
import { render, screen } from "@testing-library/react";
import type { PageProps } from "gatsby";
import NotFoundPage from "./404";

describe("the not-found page", () => {
  it("says the page was not found, links home and logs the missing path", () => {
    const consoleError = jest.spyOn(console, "error").mockImplementation(() => undefined);
    const props = { location: { pathname: "/some/missing/path" } } as unknown as PageProps;
    render(<NotFoundPage {...props} />);

    expect(screen.getByText("404")).toBeInTheDocument();
    expect(screen.getByRole("heading", { level: 1, name: /Oops! Page not found/ })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Return to Home" })).toHaveAttribute("href", "/");
    expect(consoleError).toHaveBeenCalledWith("404 Error: User attempted to access non-existent route:", "/some/missing/path");
    consoleError.mockRestore();
  });
});
