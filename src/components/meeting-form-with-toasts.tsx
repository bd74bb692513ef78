import React from "react";
import { MeetingForm } from "./meeting-form";
import { ToastRegion } from "./toast-region";

/** Everything that reacts to the visitor: the form and the toasts that report its result (one React root in the built page). */
export function MeetingFormWithToasts({ content }: { content: Queries.MeetingFormFragment }) {
  return (
    <>
      <MeetingForm content={content} />
      <ToastRegion label={content.toastRegionLabel} />
    </>
  );
}
