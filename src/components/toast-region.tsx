import React, { lazy, Suspense, useSyncExternalStore } from "react";
import { createPortal } from "react-dom";
import { subscribeToToastsWanted, toastsWanted } from "../lib/toasts";

const LoadedToastContainer = lazy(() => import("./toast-container"));

/**
 * Where submission results appear, once the visitor has reached the form: react-toastify and its
 * styles are not part of the page's first download (src/lib/toasts.ts). `label` names the region
 * for screen readers (content/meeting.yaml: toastRegionLabel). It is placed at the end of the
 * document's body, outside the form it belongs to, so that nothing around the form can clip it.
 */
export function ToastRegion({ label }: { label: string }) {
  const wanted = useSyncExternalStore(subscribeToToastsWanted, toastsWanted, () => false);
  if (!wanted) return null;
  return createPortal(
    <Suspense fallback={null}>
      <LoadedToastContainer label={label} />
    </Suspense>,
    document.body,
  );
}
