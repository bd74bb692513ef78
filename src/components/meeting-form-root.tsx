import React, { startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { MeetingFormWithToasts } from "./meeting-form-with-toasts";

/**
 * Loaded on demand (meeting-form-island.tsx): makes the form's server-rendered HTML live as a React
 * root of its own. Inside a transition, React hydrates in short slices and yields to the browser
 * between them; the inputs are native, so what the visitor types in the meantime stays in them.
 */
export function hydrateMeetingForm(island: Element, content: Queries.MeetingFormFragment): void {
  startTransition(() => {
    hydrateRoot(island, <MeetingFormWithToasts content={content} />);
  });
}
