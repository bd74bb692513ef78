/** The exact words of the two outcomes of a submission (product spec, section 8). */
export const SUBMIT_SUCCESS_TOAST = {
  title: "Meeting Request Submitted Successfully!",
  text: "We'll contact you soon to schedule your meeting at CTAA Expo 2025 Booth #713.",
} as const;

export const SUBMIT_FAILURE_TOAST = {
  title: "Submission Failed",
  text: "There was an error submitting your form. Please try again or contact us directly.",
} as const;

/** Display behaviour of the toasts (spec section 9): about 4 seconds, at most 3 at once. */
export const TOAST_AUTO_CLOSE_MS = 4000;
export const TOAST_LIMIT = 3;
