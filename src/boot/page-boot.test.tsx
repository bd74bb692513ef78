import React from "react";
import { act, screen } from "@testing-library/react";
import { renderToString } from "react-dom/server";
import type { PageProps } from "gatsby";
import IndexPage from "../pages/index";
import NotFoundPage from "../pages/404";
import {
  indexPageDataFromContent,
  loadContentFile,
  notFoundPageDataFromContent,
} from "../test-support/content-as-page-data";
import { bootPage, PAGE_BOOT_MARK } from "./page-boot";

/** A page as the build writes it: the component's HTML, with no React attached. */
function builtPage(element: React.ReactElement, pathname: string): void {
  document.body.innerHTML = renderToString(element);
  window.history.replaceState(null, "", pathname);
}

const hero = loadContentFile("hero") as { ctaLabel: string };
const form = (
  loadContentFile("meeting") as {
    form: { fullNameLabel: string; submitLabel: string; submittingLabel: string };
  }
).form;

describe("bootPage, the built pages' only script", () => {
  let consoleError: jest.SpyInstance;
  beforeEach(() => {
    consoleError = jest.spyOn(console, "error").mockImplementation(() => undefined);
    Element.prototype.scrollIntoView = jest.fn();
    window.matchMedia = jest.fn().mockReturnValue({ matches: false });
  });
  afterEach(() => {
    consoleError.mockRestore();
    document.body.innerHTML = "";
    window.history.replaceState(null, "", "/");
  });

  it("on the landing page: a call to action scrolls to the form, and the form becomes live when the visitor gets there", async () => {
    builtPage(
      <IndexPage
        {...({ data: indexPageDataFromContent() } as unknown as PageProps<Queries.IndexPageQuery>)}
      />,
      "/",
    );
    Object.defineProperty(document, "readyState", { configurable: true, get: () => "loading" }); // not idle yet: only the visitor starts it
    try {
      expect(screen.getByRole("button", { name: form.submitLabel })).toBeDisabled(); // as the HTML has it: no script to catch a submit
      bootPage(document);
      expect(screen.getByRole("button", { name: form.submitLabel })).toBeEnabled(); // page-boot catches it until the form is live

      const cta = screen.getAllByRole("link", { name: hero.ctaLabel })[0]!;
      const click = new MouseEvent("click", { bubbles: true, cancelable: true, button: 0 });
      cta.dispatchEvent(click);
      expect(click.defaultPrevented).toBe(true);
      expect(Element.prototype.scrollIntoView).toHaveBeenCalledWith({
        behavior: "smooth",
        block: "start",
      });
      expect(document.getElementById("contact-form")).toContainElement(
        document.activeElement as HTMLElement,
      );

      screen.getByLabelText(form.fullNameLabel).focus();
      await act(async () => new Promise((resolve) => setTimeout(resolve, 100))); // the chunk, then the hydration in the next task
      expect(
        await screen.findByRole("button", { name: form.submitLabel }, { timeout: 3000 }),
      ).toBeEnabled();
      expect(consoleError).not.toHaveBeenCalled();
    } finally {
      Reflect.deleteProperty(document, "readyState");
    }
  });

  it("on the landing page: a submit before the form is live is kept, not sent natively, and shows the submitting state", () => {
    builtPage(
      <IndexPage
        {...({ data: indexPageDataFromContent() } as unknown as PageProps<Queries.IndexPageQuery>)}
      />,
      "/",
    );
    Object.defineProperty(document, "readyState", { configurable: true, get: () => "loading" }); // the form's script is not asked for
    try {
      // A page of its own: the caught submit stays in this copy of src/lib/early-submit.ts.
      jest.isolateModules(() =>
        jest.requireActual<typeof import("./page-boot")>("./page-boot").bootPage(document),
      );
      const button = screen.getByRole("button", { name: form.submitLabel });
      const submit = new Event("submit", { bubbles: true, cancelable: true });
      button.closest("form")!.dispatchEvent(submit);
      expect(submit.defaultPrevented).toBe(true);
      expect(button).toHaveTextContent(form.submittingLabel);
      for (const control of button.closest("form")!.querySelectorAll("input, textarea, button"))
        expect(control).toBeDisabled();
      expect(button.closest("form")).toHaveAttribute("aria-busy", "true");
    } finally {
      Reflect.deleteProperty(document, "readyState");
    }
  });

  it("on the not-found page: logs the missing path, and nothing else", () => {
    builtPage(
      <NotFoundPage
        {...({
          data: notFoundPageDataFromContent(),
          location: { pathname: "/404.html" },
        } as unknown as PageProps<Queries.NotFoundPageQuery>)}
      />,
      "/no/such/page",
    );
    consoleError.mockClear(); // renderToString runs no effects, but be sure only bootPage speaks
    bootPage(document);
    expect(consoleError.mock.calls).toEqual([
      ["404 Error: User attempted to access non-existent route:", "/no/such/page"],
    ]);
  });

  it("logs nothing on the landing page, and leaves a performance mark for tests and benchmarks to wait for", () => {
    builtPage(
      <IndexPage
        {...({ data: indexPageDataFromContent() } as unknown as PageProps<Queries.IndexPageQuery>)}
      />,
      "/",
    );
    const mark = jest.fn();
    Object.defineProperty(window.performance, "mark", { configurable: true, value: mark });
    try {
      bootPage(document);
    } finally {
      Reflect.deleteProperty(window.performance, "mark");
    }
    expect(consoleError).not.toHaveBeenCalled();
    expect(mark).toHaveBeenCalledWith(PAGE_BOOT_MARK);
  });
});
