/**
 * Runs `work` in a task after the browser has painted the next frame, so that what the visitor
 * just did (a tap, a focus) is answered on screen first and does not wait for it: the handler that
 * calls this returns at once, and INP counts only up to that frame. Returns a function that
 * cancels the work if it has not run yet.
 */
export function afterNextPaint(work: () => void, win: Window = window): () => void {
  let timer: number | undefined;
  const frame = win.requestAnimationFrame(() => {
    timer = win.setTimeout(work, 0);
  });
  return () => {
    win.cancelAnimationFrame(frame);
    if (timer !== undefined) win.clearTimeout(timer);
  };
}
