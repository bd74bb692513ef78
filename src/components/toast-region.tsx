import React from "react";
import { ToastContainer } from "react-toastify/unstyled";
import "react-toastify/ReactToastify.css";
import { TOAST_AUTO_CLOSE_MS, TOAST_LIMIT } from "../lib/toast-display";

/**
 * Where submission results appear: about 4 seconds each, at most 3 at once, announced to screen
 * readers. `label` names the region for them (content/meeting.yaml: toastRegionLabel).
 */
export function ToastRegion({ label }: { label: string }) {
  return (
    <ToastContainer position="top-right" autoClose={TOAST_AUTO_CLOSE_MS} limit={TOAST_LIMIT} newestOnTop theme="light" aria-label={label} />
  );
}
