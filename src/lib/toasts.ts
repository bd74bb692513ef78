/**
 * Toasts without their library in the page's first download: react-toastify, its styles and the
 * toast container load when the visitor first needs them (prepareToasts, called when they reach
 * the form) or at the latest with the first toast. A toast shown before the container is on the
 * page waits in react-toastify's queue and appears when it mounts.
 */
import type { ToastKind, ToastText } from "./toast-display";

let wanted = false;
const listeners = new Set<() => void>();

export function toastsWanted(): boolean {
  return wanted;
}

export function subscribeToToastsWanted(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Puts the toast container on the page (and starts loading it), once. */
export function prepareToasts(): void {
  if (wanted) return;
  wanted = true;
  for (const listener of listeners) listener();
}

export async function showToast(kind: ToastKind, message: ToastText): Promise<void> {
  prepareToasts();
  const { showLoadedToast } = await import("../components/toast-container");
  showLoadedToast(kind, message);
}
