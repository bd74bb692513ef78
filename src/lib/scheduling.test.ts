import { afterNextPaint, whenNearViewport, whenNeeded } from "./scheduling";

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
    whenNeeded(area, start, { idle: false });
    outside.focus();
    expect(start).not.toHaveBeenCalled();
    input.focus();
    input.blur();
    input.focus();
    expect(start).toHaveBeenCalledTimes(1);
  });

  it("starts at a press inside the area", () => {
    const { area, input, start } = setUp();
    whenNeeded(area, start, { idle: false });
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
      whenNeeded(area, start, { idleTimeoutMs: 1500 });
      expect(requestIdleCallback).toHaveBeenCalledWith(expect.any(Function), { timeout: 1500 });
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
  /** A stand-in IntersectionObserver (jsdom has none) that lets the test report intersections. */
  function fakeObserver() {
    const observers: Array<{
      report: (entries: Array<{ isIntersecting: boolean }>) => void;
      options: IntersectionObserverInit;
      observed: Element[];
      disconnected: boolean;
    }> = [];
    class FakeIntersectionObserver {
      readonly record;
      constructor(
        report: (entries: Array<{ isIntersecting: boolean }>) => void,
        options: IntersectionObserverInit,
      ) {
        this.record = { report, options, observed: [] as Element[], disconnected: false };
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

  it("starts once, when the element comes within the margin, not at the observer's first report of a far element", () => {
    const { win, observers } = fakeObserver();
    const element = document.createElement("section");
    const start = jest.fn();
    whenNearViewport(element, start, "50% 0px", win);
    const [observer] = observers;
    expect(observer!.options.rootMargin).toBe("50% 0px");
    expect(observer!.observed).toEqual([element]);
    observer!.report([{ isIntersecting: false }]);
    expect(start).not.toHaveBeenCalled();
    observer!.report([{ isIntersecting: true }]);
    expect(start).toHaveBeenCalledTimes(1);
    expect(observer!.disconnected).toBe(true);
  });

  it("can be cancelled before, and never starts where the browser has no IntersectionObserver", () => {
    const { win, observers } = fakeObserver();
    whenNearViewport(document.createElement("div"), jest.fn(), "0px", win)();
    expect(observers[0]!.disconnected).toBe(true);
    const start = jest.fn();
    const noObserver = {} as Window & typeof globalThis;
    expect(() =>
      whenNearViewport(document.createElement("div"), start, "0px", noObserver)(),
    ).not.toThrow();
    expect(start).not.toHaveBeenCalled();
  });
});

describe("afterNextPaint", () => {
  /** A window whose frames and timers run only when the test says so. */
  function fakeWindow() {
    const frames = new Map<number, () => void>();
    const timers = new Map<number, () => void>();
    let next = 1;
    const win = {
      requestAnimationFrame: (callback: () => void) => (frames.set(next, callback), next++),
      cancelAnimationFrame: (id: number) => frames.delete(id),
      setTimeout: (callback: () => void) => (timers.set(next, callback), next++),
      clearTimeout: (id: number) => timers.delete(id),
    } as unknown as Window;
    const runAll = (queue: Map<number, () => void>) => {
      const due = [...queue.values()];
      queue.clear();
      for (const callback of due) callback();
    };
    return { win, paintFrame: () => runAll(frames), runTasks: () => runAll(timers) };
  }

  it("runs the work in a task after the next frame, not during the caller nor in the frame", () => {
    const { win, paintFrame, runTasks } = fakeWindow();
    const work = jest.fn();
    afterNextPaint(work, win);
    runTasks();
    paintFrame();
    expect(work).not.toHaveBeenCalled();
    runTasks();
    expect(work).toHaveBeenCalledTimes(1);
  });

  it.each([false, true])("can be cancelled (after the frame: %s)", (cancelAfterFrame) => {
    const { win, paintFrame, runTasks } = fakeWindow();
    const work = jest.fn();
    const cancel = afterNextPaint(work, win);
    if (cancelAfterFrame) paintFrame();
    cancel();
    paintFrame();
    runTasks();
    expect(work).not.toHaveBeenCalled();
  });
});
