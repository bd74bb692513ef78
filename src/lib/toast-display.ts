/**
 * What a toast is and how it shows (spec section 9): about 4 seconds, at most 3 at once. Their
 * words are content (content/meeting.yaml: successToast, failureToast). Both sides of the toasts'
 * lazy boundary import this module (src/lib/toasts.ts and the container it loads), so they never
 * import each other.
 */
export const TOAST_AUTO_CLOSE_MS = 4000;
export const TOAST_LIMIT = 3;
export type ToastKind = "success" | "error";
export type ToastText = { title: string; text: string };
