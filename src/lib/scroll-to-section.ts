export const CONTACT_FORM_ID = "contact-form";

/**
 * Brings a section into view and moves keyboard focus to it, so the next Tab lands in the
 * section. Smooth unless the visitor asked the system for reduced motion.
 */
export function scrollToSection(sectionId: string, win: Window = window): boolean {
  const section = win.document.getElementById(sectionId);
  if (!section) return false;
  const prefersReducedMotion = win.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
  section.scrollIntoView({ behavior: prefersReducedMotion ? "auto" : "smooth", block: "start" });
  const focusTarget = section.querySelector<HTMLElement>("[data-focus-target]") ?? section;
  focusTarget.focus({ preventScroll: true });
  return true;
}
