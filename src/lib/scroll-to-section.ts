/**
 * Brings a section into view and moves keyboard focus to it, so the next Tab lands in the
 * section. Smooth unless the visitor asked the system for reduced motion.
 */
export function scrollToSection(sectionId: string, win: Window = window): boolean {
  const section = win.document.getElementById(sectionId);
  if (!section) return false;
  const prefersReducedMotion =
    win.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
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
export function scrollToSectionOnLinkClick(sectionId: string, win: Window = window): () => void {
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
    if (link && scrollToSection(sectionId, win)) event.preventDefault();
  };
  win.document.addEventListener("click", onClick);
  return () => win.document.removeEventListener("click", onClick);
}
