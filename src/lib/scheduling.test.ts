import { afterNextPaint, whenNearViewport, whenNeeded } from "./scheduling";
import { FakeIntersectionObserver, observedWindow } from "../test-support/intersection-observer";

afterEach(() => {
  document.body.innerHTML = "";
  jest.useRealTimers();
});

describe("whenNeeded", () => {
  function setUp() {
    document.body.innerHTML = "<section><input></section><button>Outside</button>";
    return {
      area: document.querySelector("section")!,
      input: document.querySelector("input")!,
      outside: document.querySelector("button")!,
      start: jest.fn(),
    };
  }

  it("starts at the first focus inside the area, once", () => {
    const { area, input, outside, start } = setUp();
    whenNeeded(area, start);
    outside.focus();
    expect(start).not.toHaveBeenCalled();
    input.focus();
    input.blur();
    input.focus();
    expect(start).toHaveBeenCalledTimes(1);
  });

  it("starts at a press inside the area", () => {
    const { area, input, start } = setUp();
    whenNeeded(area, start);
    input.dispatchEvent(new Event("pointerdown", { bubbles: true }));
    expect(start).toHaveBeenCalledTimes(1);
  });

  it("starts at once when focus is already inside the area (a call to action followed before the script arrived)", () => {
    const { area, input, start } = setUp();
    input.focus();
    whenNeeded(area, start)();
    input.blur();
    input.focus();
    expect(start).toHaveBeenCalledTimes(1);
  });

  it("starts when the browser is idle after the load, if nobody reached the area before", () => {
    jest.useFakeTimers();
    const { area, input, start } = setUp();
    // jsdom has finished loading its document, and has no requestIdleCallback: a task later.
    expect(document.readyState).toBe("complete");
    whenNeeded(area, start);
    expect(start).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    input.focus();
    expect(start).toHaveBeenCalledTimes(1);
  });

  it("uses requestIdleCallback where the browser has it, with a deadline", () => {
    const { area, start } = setUp();
    const requestIdleCallback = jest.fn((callback: IdleRequestCallback) => {
      callback({ didTimeout: false, timeRemaining: () => 10 });
      return 1;
    });
    Object.assign(window, { requestIdleCallback, cancelIdleCallback: jest.fn() });
    try {
      whenNeeded(area, start);
      expect(requestIdleCallback).toHaveBeenCalledWith(expect.any(Function), { timeout: 2000 });
      expect(start).toHaveBeenCalledTimes(1);
    } finally {
      Reflect.deleteProperty(window, "requestIdleCallback");
      Reflect.deleteProperty(window, "cancelIdleCallback");
    }
  });

  it("does nothing once cancelled", () => {
    jest.useFakeTimers();
    const { area, input, start } = setUp();
    whenNeeded(area, start)();
    jest.advanceTimersByTime(10);
    input.focus();
    expect(start).not.toHaveBeenCalled();
  });
});

describe("whenNearViewport", () => {
  it("starts once, when the element comes within the margin, not at the observer's first report of a far element", () => {
    const start = jest.fn();
    const element = document.createElement("section");
    whenNearViewport(element, start, "50% 0px", observedWindow());
    const [observer] = FakeIntersectionObserver.made;
    expect(observer!.options.rootMargin).toBe("50% 0px");
    expect(observer!.observed).toEqual([element]);
    FakeIntersectionObserver.inView(false);
    expect(start).not.toHaveBeenCalled();
    FakeIntersectionObserver.inView(true);
    expect(start).toHaveBeenCalledTimes(1);
    expect(observer!.disconnected).toBe(true);
  });

  it("can be cancelled before, and never starts where the browser has no IntersectionObserver", () => {
    whenNearViewport(document.createElement("div"), jest.fn(), "0px", observedWindow())();
    expect(FakeIntersectionObserver.made[0]!.disconnected).toBe(true);
    const start = jest.fn();
    const noObserver = {} as Window & typeof globalThis;
    expect(() => whenNearViewport(document.body, start, "0px", noObserver)()).not.toThrow();
    expect(start).not.toHaveBeenCalled();
  });
});

describe("afterNextPaint", () => {
  beforeEach(() => jest.useFakeTimers());

  it("runs the work in a task after the next frame, not during the caller nor in the frame", () => {
    const work = jest.fn();
    afterNextPaint(work);
    expect(work).not.toHaveBeenCalled();
    jest.advanceTimersToNextTimer(); // the frame, which queues the task
    expect(work).not.toHaveBeenCalled();
    jest.advanceTimersToNextTimer();
    expect(work).toHaveBeenCalledTimes(1);
  });

  it.each([0, 1])("can be cancelled (after %i frames)", (frames) => {
    const work = jest.fn();
    const cancel = afterNextPaint(work);
    jest.advanceTimersToNextTimer(frames);
    cancel();
    jest.runAllTimers();
    expect(work).not.toHaveBeenCalled();
  });
});
