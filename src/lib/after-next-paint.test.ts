import { afterNextPaint } from "./after-next-paint";

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
  };
  const runAll = (queue: Map<number, () => void>) => {
    const due = [...queue.values()];
    queue.clear();
    for (const callback of due) callback();
  };
  return {
    win: win as unknown as Window,
    paintFrame: () => runAll(frames),
    runTasks: () => runAll(timers),
  };
}

describe("afterNextPaint", () => {
  it("runs the work in a task after the next frame, not during the caller nor in the frame", () => {
    const { win, paintFrame, runTasks } = fakeWindow();
    const work = jest.fn();
    afterNextPaint(work, win);
    runTasks();
    expect(work).not.toHaveBeenCalled();
    paintFrame();
    expect(work).not.toHaveBeenCalled();
    runTasks();
    expect(work).toHaveBeenCalledTimes(1);
  });

  it("can be cancelled before the frame and after it", () => {
    for (const cancelAfterFrame of [false, true]) {
      const { win, paintFrame, runTasks } = fakeWindow();
      const work = jest.fn();
      const cancel = afterNextPaint(work, win);
      if (cancelAfterFrame) paintFrame();
      cancel();
      paintFrame();
      runTasks();
      expect(work).not.toHaveBeenCalled();
    }
  });
});
