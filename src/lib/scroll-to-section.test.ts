import { scrollToSectionOnLinkClick } from "./scroll-to-section";

// The scroll itself (smooth, or a jump with reduced motion) and the focus it moves to the form:
// e2e/tests/landing.spec.ts.
describe("scrollToSectionOnLinkClick", () => {
  let scrollIntoView: jest.Mock;
  let stop: () => void;

  beforeEach(() => {
    document.body.innerHTML = `
      <section><p>Markup React never hydrated: <a href="#contact-form"><span>Book a meeting</span></a></p><a href="#elsewhere">Other</a></section>
      <section id="contact-form"><h2 tabindex="-1" data-focus-target>Schedule</h2></section>`;
    scrollIntoView = jest.fn();
    Element.prototype.scrollIntoView = scrollIntoView;
    window.matchMedia = jest.fn().mockReturnValue({ matches: false });
    stop = scrollToSectionOnLinkClick("contact-form");
  });
  afterEach(() => stop());

  const click = (element: Element, init: MouseEventInit = {}) => {
    const event = new MouseEvent("click", { bubbles: true, cancelable: true, button: 0, ...init });
    element.dispatchEvent(event);
    return event;
  };

  it("catches a tap anywhere inside a link to the section, and leaves other links, modified clicks and links already handled to the browser, until stopped", () => {
    expect(click(document.querySelector("a[href='#elsewhere']")!).defaultPrevented).toBe(false);
    expect(
      click(document.querySelector("a[href='#contact-form']")!, { ctrlKey: true }).defaultPrevented,
    ).toBe(false);
    const handledFirst = (event: Event) => event.preventDefault();
    document.body.addEventListener("click", handledFirst, { capture: true });
    click(document.querySelector("a[href='#contact-form']")!);
    document.body.removeEventListener("click", handledFirst, { capture: true });
    expect(scrollIntoView).not.toHaveBeenCalled();
    const inside = document.querySelector("a[href='#contact-form'] span")!;
    expect(click(inside).defaultPrevented).toBe(true);
    stop();
    expect(click(inside).defaultPrevented).toBe(false);
  });
});
