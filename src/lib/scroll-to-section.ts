/**
 * Brings a section into view and moves keyboard focus to it, so the next Tab lands in the
 * section. Smooth unless the visitor asked the system for reduced motion.
 */
export function scrollToSection(sectionId: string): boolean {
  const section = document.getElementById(sectionId);
  if (!section) return false;
  const prefersReducedMotion = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
  section.scrollIntoView({ behavior: prefersReducedMotion ? "auto" : "smooth", block: "start" });
  const focusTarget = section.querySelector<HTMLElement>("[data-focus-target]") ?? section;
  focusTarget.focus({ preventScroll: true });
  return true;
}

/**
 * Every link to `#sectionId` on the page, present or future, scrolls with scrollToSection instead of
 * jumping. One listener on the document, so the links need no script of their own (they are in
 * markup React never hydrates); before it is added they are plain fragment links, which also work.
 * Returns the function that removes the listener.
 */
export function scrollToSectionOnLinkClick(sectionId: string): () => void {
  const onClick = (event: MouseEvent) => {
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey
    )
      return;
    const link =
      event.target instanceof Element ? event.target.closest(`a[href="#${sectionId}"]`) : null;
    if (link && scrollToSection(sectionId)) event.preventDefault();
  };
  document.addEventListener("click", onClick);
  return () => document.removeEventListener("click", onClick);
}
