/*
 * The names the form island's parts share: the build's loader (build-time/page-scripts.ts), the
 * start-up script (src/boot/), the island's HTML (src/components/meeting-form-island.tsx), the live
 * form and its warm-up. Here, in a module with no imports, because the loader and the start-up
 * script must not import React or a component.
 */

/** The form's React root in the built page. */
export const MEETING_FORM_ISLAND_ID = "meeting-form";
/** The form's words as JSON, written beside the island at build time: what it hydrates with. */
export const MEETING_FORM_CONTENT_ID = "meeting-form-content";
/** How near the form must come to the viewport before the page prepares its submit ("reaching the form"): half a screen. */
export const FORM_NEAR_MARGIN = "50% 0px";
/** Set on the form's section by the page's loader when it warmed the way to Supabase (build-time/page-scripts.ts), with the time (performance.now()). */
export const WARMED_UP_ATTRIBUTE = "data-warmed-up";
