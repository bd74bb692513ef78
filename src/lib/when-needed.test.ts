import { whenNeeded } from "./when-needed";

function setUp() {
  const area = document.createElement("section");
  const input = document.createElement("input");
  area.appendChild(input);
  const outside = document.createElement("button");
  document.body.append(area, outside);
  return { area, input, outside, start: jest.fn() };
}

afterEach(() => {
  document.body.innerHTML = "";
  jest.useRealTimers();
});

describe("whenNeeded", () => {
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

  it("starts at once when focus is already inside the area (a call to action followed before the script arrived)", () => {
    const { area, input, start } = setUp();
    input.focus();
    const cancel = whenNeeded(area, start);
    expect(start).toHaveBeenCalledTimes(1);
    cancel();
    input.blur();
    input.focus();
    expect(start).toHaveBeenCalledTimes(1);
  });

  it("waits for the next focus or press instead, when asked (a retry after a failed download)", () => {
    const { area, input, outside, start } = setUp();
    input.focus();
    whenNeeded(area, start, { idle: false, ifAlreadyThere: false });
    expect(start).not.toHaveBeenCalled();
    outside.focus();
    input.focus();
    expect(start).toHaveBeenCalledTimes(1);
  });

  it("starts at a press inside the area", () => {
    const { area, input, start } = setUp();
    whenNeeded(area, start, { idle: false });
    input.dispatchEvent(new Event("pointerdown", { bubbles: true }));
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
    expect(start).toHaveBeenCalledTimes(1);
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
    const cancel = whenNeeded(area, start);
    cancel();
    jest.advanceTimersByTime(10);
    input.focus();
    expect(start).not.toHaveBeenCalled();
  });
});
