import { whenNearViewport } from "./when-near-viewport";

type Callback = (entries: Array<{ isIntersecting: boolean }>) => void;

/** A stand-in IntersectionObserver (jsdom has none) that lets the test report intersections. */
function fakeObserver() {
  const observers: Array<{
    callback: Callback;
    options: IntersectionObserverInit;
    observed: Element[];
    disconnected: boolean;
  }> = [];
  class FakeIntersectionObserver {
    private readonly record;
    constructor(callback: Callback, options: IntersectionObserverInit) {
      this.record = { callback, options, observed: [] as Element[], disconnected: false };
      observers.push(this.record);
    }
    observe(element: Element) {
      this.record.observed.push(element);
    }
    disconnect() {
      this.record.disconnected = true;
    }
  }
  const win = { IntersectionObserver: FakeIntersectionObserver } as unknown as Window &
    typeof globalThis;
  return { win, observers };
}

describe("whenNearViewport", () => {
  it("starts once, when the element comes within the margin, and not at the observer's first report of a far element", () => {
    const { win, observers } = fakeObserver();
    const element = document.createElement("section");
    const start = jest.fn();
    whenNearViewport(element, start, "50% 0px", win);
    const [observer] = observers;
    expect(observer!.options.rootMargin).toBe("50% 0px");
    expect(observer!.observed).toEqual([element]);

    observer!.callback([{ isIntersecting: false }]);
    expect(start).not.toHaveBeenCalled();
    observer!.callback([{ isIntersecting: true }]);
    expect(start).toHaveBeenCalledTimes(1);
    expect(observer!.disconnected).toBe(true);
  });

  it("can be cancelled before", () => {
    const { win, observers } = fakeObserver();
    const cancel = whenNearViewport(document.createElement("div"), jest.fn(), "0px", win);
    cancel();
    expect(observers[0]!.disconnected).toBe(true);
  });

  it("never starts where the browser has no IntersectionObserver", () => {
    const start = jest.fn();
    expect(() =>
      whenNearViewport(
        document.createElement("div"),
        start,
        "0px",
        {} as Window & typeof globalThis,
      )(),
    ).not.toThrow();
    expect(start).not.toHaveBeenCalled();
  });
});
