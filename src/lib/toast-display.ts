/**
 * Display behaviour of the toasts (spec section 9): about 4 seconds, at most 3 at once.
 * Their words are content (content/meeting.yaml: successToast, failureToast).
 */
export const TOAST_AUTO_CLOSE_MS = 4000;
export const TOAST_LIMIT = 3;
