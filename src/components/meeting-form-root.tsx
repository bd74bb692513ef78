import React, { startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { MeetingForm } from "./meeting-form";
import { ToastRegion } from "./toast-region";

/**
 * The form's React root: the form and the toasts that report its result. The island renders it
 * into the HTML (meeting-form-island.tsx); in the built page it is the `meeting-form` chunk, which
 * page-boot loads when the form is needed (src/boot/meeting-form-hydration.ts) and hydrates with
 * hydrateMeetingForm.
 */
export function MeetingFormRoot({ content }: { content: Queries.MeetingFormFragment }) {
  return (
    <>
      <MeetingForm content={content} />
      <ToastRegion label={content.toastRegionLabel} />
    </>
  );
}

/**
 * Makes the form's server-rendered HTML live as a React root of its own. Inside a transition, React
 * hydrates in short slices and yields to the browser between them; the inputs are native, so what
 * the visitor types in the meantime stays in them.
 */
export function hydrateMeetingForm(island: Element, content: Queries.MeetingFormFragment): void {
  startTransition(() => {
    hydrateRoot(island, <MeetingFormRoot content={content} />);
  });
}
