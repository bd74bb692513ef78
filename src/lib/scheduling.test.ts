import { afterNextPaint, whenNearViewport } from "./scheduling";
import {
  FakeIntersectionObserver,
  installFakeIntersectionObserver,
} from "../test-support/intersection-observer";

afterEach(() => {
  document.body.innerHTML = "";
  jest.useRealTimers();
});

describe("whenNearViewport", () => {
  it("starts once, when the element comes within the margin, not at the observer's first report of a far element", () => {
    installFakeIntersectionObserver();
    const start = jest.fn();
    const element = document.createElement("section");
    whenNearViewport(element, start, "50% 0px");
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
    installFakeIntersectionObserver();
    whenNearViewport(document.createElement("div"), jest.fn(), "0px")();
    expect(FakeIntersectionObserver.made[0]!.disconnected).toBe(true);
    Reflect.deleteProperty(window, "IntersectionObserver");
    const start = jest.fn();
    expect(() => whenNearViewport(document.body, start, "0px")()).not.toThrow();
    expect(start).not.toHaveBeenCalled();
  });
});

it("afterNextPaint runs the work in a task after the next frame, not during the caller nor in the frame", () => {
  jest.useFakeTimers();
  const work = jest.fn();
  afterNextPaint(work);
  expect(work).not.toHaveBeenCalled();
  jest.advanceTimersToNextTimer(); // the frame, which queues the task
  expect(work).not.toHaveBeenCalled();
  jest.advanceTimersToNextTimer();
  expect(work).toHaveBeenCalledTimes(1);
});
